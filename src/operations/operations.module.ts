import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../projections/read-models.module';
import { Connections } from './connections';
import { Draining } from './draining';
import { Metrics } from './metrics';
import { ScrapeStateReader } from './scrape-state';
import { MetricsController } from './metrics.controller';
import { RateBudgets } from './rate-budgets';
import { RequestBudget } from './request-rate-limit';
import { SearchBudget } from './search-budget';

/** What keeps the service up under load and lets operators see it: rate limits, connections, metrics, draining on stop. */
@Module({
  imports: [ReadModelsModule],
  controllers: [MetricsController],
  providers: [Metrics, ScrapeStateReader, RateBudgets, RequestBudget, SearchBudget, Draining, Connections],
  exports: [Metrics, RateBudgets, RequestBudget, SearchBudget, Draining, Connections],
})
export class OperationsModule {}
