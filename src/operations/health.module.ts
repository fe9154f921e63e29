import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../projections/read-models.module';
import { HealthController } from './health.controller';

/** Liveness and readiness for orchestrators. */
@Module({ imports: [ReadModelsModule], controllers: [HealthController] })
export class HealthModule {}
