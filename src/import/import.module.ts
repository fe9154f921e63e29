import { Module } from '@nestjs/common';
import { ErrorEntriesModule } from '../error-entries/error-entries.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ListingsModule } from '../listings/listings.module';
import { ModelsModule } from '../models/models.module';
import { ImportCatalogHandler } from './import-catalog.handler';
import { WithdrawFromDirectoryHandler } from './withdraw-from-directory.handler';

/** The editors' use cases: bringing files into the directory (the ingest CLI, and seeding on first start), and withdrawing. */
@Module({
  imports: [EventStoreModule, ListingsModule, ErrorEntriesModule, ModelsModule],
  providers: [ImportCatalogHandler, WithdrawFromDirectoryHandler],
})
export class ImportModule {}
