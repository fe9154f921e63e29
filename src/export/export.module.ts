import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../projections/read-models.module';
import { CatalogExport } from './catalog-export';
import { ExportController } from './export.controller';
import { ExportGate } from './export-gate';

/** GET /api/v1/export (the whole catalog, consistent with a change-feed cursor), its JSON Schema, and /api/data. */
@Module({
  imports: [ReadModelsModule, EventStoreModule],
  controllers: [ExportController],
  providers: [CatalogExport, ExportGate],
})
export class ExportModule {}
