import { Module } from '@nestjs/common';
import { ErrorReferenceModule } from '../error-reference/error-reference.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ListingsModule } from '../listings/listings.module';
import { ImportCatalogHandler } from './import-catalog.handler';
import { WithdrawFromDirectoryHandler } from './withdraw-from-directory.handler';

/** The editors' use cases: bringing files into the directory (the ingest CLI, and seeding on first start), and withdrawing. */
@Module({
  imports: [EventStoreModule, ListingsModule, ErrorReferenceModule],
  providers: [ImportCatalogHandler, WithdrawFromDirectoryHandler],
})
export class ImportModule {}
