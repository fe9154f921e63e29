import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../read-models/read-models.module';
import { PagesController } from './pages.controller';

/**
 * The pages for people: the directory in a browser, in English and Chinese (`/zh/...`), over the same
 * queries as the JSON API and MCP. Registered last: its catch-all GET route is matched after every other.
 */
@Module({
  imports: [ReadModelsModule],
  controllers: [PagesController],
})
export class PagesModule {}
