import { Module } from '@nestjs/common';
import { ErrorReferenceModule } from '../error-reference/error-reference.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ListingsModule } from '../listings/listings.module';
import { ImportCatalogHandler } from './import-catalog.handler';

/** Bringing editors' files into the directory (the ingest CLI, and seeding on first start). */
@Module({
  imports: [EventStoreModule, ListingsModule, ErrorReferenceModule],
  providers: [ImportCatalogHandler],
})
export class ImportModule {}
