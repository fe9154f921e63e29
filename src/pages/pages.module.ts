import { Module, OnModuleInit } from '@nestjs/common';
import { OperationsModule } from '../operations/operations.module';
import { RequestBudget } from '../operations/request-rate-limit';
import { ReadModelsModule } from '../projections/read-models.module';
import { prefersHtml } from './negotiation';
import { sendErrorPage } from './page-errors.filter';
import { isPagePath } from './page-paths';
import { CategoryPageController } from './category/category.controller';
import { ChangesPageController } from './changes/changes.controller';
import { ComparePageController } from './compare/compare.controller';
import { ErrorReferencePageController } from './error-reference/error-reference.controller';
import { HomePageController } from './home/home.controller';
import { ListingPageController } from './listing/listing.controller';
import { ModelPagesController } from './models/models.controller';
import { PageRenderer } from './page-renderer';
import { SearchPageController } from './search/search.controller';
import { SiteController } from './site/site.controller';

/**
 * The pages for people: the directory in a browser, in English and Chinese (`/zh/...`), over the same
 * queries as the JSON API and MCP. A folder per page type holds its controller (a thin adapter over the
 * query handlers, through PageRenderer) and its views; `shared/` holds the layout and the parts pages
 * share. Registered last: the site's catch-all GET route is matched after every other.
 */
@Module({
  imports: [ReadModelsModule, OperationsModule],
  providers: [PageRenderer],
  controllers: [
    HomePageController,
    SearchPageController,
    ListingPageController,
    CategoryPageController,
    ComparePageController,
    ModelPagesController,
    ErrorReferencePageController,
    ChangesPageController,
    SiteController,
  ],
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
