import { Module, OnModuleInit } from '@nestjs/common';
import { OperationsModule } from '../operations/operations.module';
import { RequestBudget } from '../operations/request-rate-limit';
import { ReadModelsModule } from '../projections/read-models.module';
import { prefersHtml } from './negotiation';
import { sendErrorPage } from './page-errors.filter';
import { isPagePath } from './page-paths';
import { PagesController } from './pages.controller';

/**
 * The pages for people: the directory in a browser, in English and Chinese (`/zh/...`), over the same
 * queries as the JSON API and MCP. Registered last: its catch-all GET route is matched after every other.
 */
@Module({
  imports: [ReadModelsModule, OperationsModule],
  controllers: [PagesController],
})
export class PagesModule implements OnModuleInit {
  constructor(private readonly requestBudget: RequestBudget) {}

  /** A browser past its request budget on a page gets the 429 as a page (Retry-After kept), not JSON. */
  onModuleInit(): void {
    this.requestBudget.answerRefusalsWith((request, reply, problem) => {
      if (!isPagePath(request.url) || !prefersHtml(request.headers.accept)) return false;
      sendErrorPage(request, reply, problem);
      return true;
    });
  }
}
