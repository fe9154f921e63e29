import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../read-models/read-models.module';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { RateBudgets } from './rate-budgets';
import { SearchBudget } from './search-budget';

/** What keeps the service up under load and lets operators see it: rate limits and metrics. */
@Module({
  imports: [ReadModelsModule],
  controllers: [MetricsController],
  providers: [Metrics, RateBudgets, SearchBudget],
  exports: [Metrics, RateBudgets, SearchBudget],
})
export class OperationsModule {}
