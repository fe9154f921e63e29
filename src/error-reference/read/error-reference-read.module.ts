import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../../projections/read-models.module';
import { ListErrorsController } from './list-errors.controller';
import { ListErrorsHandler } from './list-errors.handler';

/** GET /api/v1/errors. */
@Module({
  imports: [ReadModelsModule],
  controllers: [ListErrorsController],
  providers: [ListErrorsHandler],
})
export class ErrorReferenceModule {}
