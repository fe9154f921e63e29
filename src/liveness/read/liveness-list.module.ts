import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../../projections/read-models.module';
import { ListLivenessController } from './list-liveness.controller';
import { ListLivenessHandler } from './list-liveness.handler';

/** GET /api/v1/liveness (the prober that feeds it is src/liveness/prober/, run apart from the service). */
@Module({
  imports: [ReadModelsModule],
  controllers: [ListLivenessController],
  providers: [ListLivenessHandler],
})
export class LivenessListModule {}
