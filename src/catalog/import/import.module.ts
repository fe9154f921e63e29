import { Module } from '@nestjs/common';
import { ErrorEntriesModule } from '../../error-reference/write/error-entries.module';
import { EventStoreModule } from '../../event-store/event-store.module';
import { ListingsModule } from '../../listings/write/listings-write.module';
import { ModelsModule } from '../../models/write/models-write.module';
import { ImportCatalogHandler } from './import-catalog.handler';
import { WithdrawFromDirectoryHandler } from './withdraw-from-directory.handler';

/** The editors' use cases: bringing files into the directory (the ingest CLI, and seeding on first start), and withdrawing. */
@Module({
  imports: [EventStoreModule, ListingsModule, ErrorEntriesModule, ModelsModule],
  providers: [ImportCatalogHandler, WithdrawFromDirectoryHandler],
})
export class ImportModule {}
