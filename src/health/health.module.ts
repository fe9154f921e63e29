import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ReadModelsModule } from '../read-models/read-models.module';
import { HealthController } from './health.controller';

/**
 * Liveness and readiness for orchestrators. Terminus's own log of failed checks is off: a probe every few
 * seconds would fill the log, and /readyz's body says why.
 */
@Module({ imports: [TerminusModule.forRoot({ logger: false }), ReadModelsModule], controllers: [HealthController] })
export class HealthModule {}
