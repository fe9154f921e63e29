import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ReadModelsModule } from '../read-models/read-models.module';
import { HealthController } from './health.controller';

/** Liveness and readiness for orchestrators. */
@Module({ imports: [TerminusModule, ReadModelsModule], controllers: [HealthController] })
export class HealthModule {}
