import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';

/** The OpenAPI document of the read API. */
@Module({ controllers: [OpenApiController] })
export class OpenApiModule {}
