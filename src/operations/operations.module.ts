import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../read-models/read-models.module';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';

/** What lets operators see the service: metrics. */
@Module({
  imports: [ReadModelsModule],
  controllers: [MetricsController],
  providers: [Metrics],
  exports: [Metrics],
})
export class OperationsModule {}
