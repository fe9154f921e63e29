import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../projections/read-models.module';
import { EventLoopLag } from './event-loop-lag';
import { HealthController } from './health.controller';

/** Liveness and readiness for orchestrators. */
@Module({ imports: [ReadModelsModule], controllers: [HealthController], providers: [EventLoopLag] })
export class HealthModule {}
