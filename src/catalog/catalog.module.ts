import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ErrorReferenceModule } from '../error-reference/error-reference.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ListingsModule } from '../listings/listings.module';
import { ProjectionsModule } from '../projections/projections.module';
import { CatalogImportService } from './catalog-import.service';

/** Bringing editors' files into the directory (used by the ingest CLI and by first-start seeding). */
@Module({
  imports: [CqrsModule, EventStoreModule, ListingsModule, ErrorReferenceModule, ProjectionsModule],
  providers: [CatalogImportService],
  exports: [CatalogImportService],
})
export class CatalogModule {}
