import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ProjectionsModule } from '../projections/projections.module';
import { ErrorsController } from './errors/errors.controller';
import { HealthController } from './health/health.controller';
import { OpenApiController } from './openapi/openapi.controller';
import { ToolsController } from './tools/tools.controller';

/** The read API: no route writes anything. */
@Module({
  imports: [ProjectionsModule, TerminusModule],
  controllers: [ToolsController, ErrorsController, OpenApiController, HealthController],
})
export class ApiModule {}
