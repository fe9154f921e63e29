import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AppConfig } from '../src/config/app-config';
import { CoreModule } from '../src/core.module';
import { ErrorEntriesModule } from '../src/error-reference/write/error-entries.module';
import { ModelsModule } from '../src/models/write/models-write.module';
import { EventStoreModule } from '../src/event-store/event-store.module';
import { ImportModule } from '../src/catalog/import/import.module';
import { ListingsModule } from '../src/listings/write/listings-write.module';
import { ProberModule } from '../src/liveness/prober/prober.module';
import { ProjectionsModule } from '../src/projections/projections.module';
import { ExportCommand } from './commands/export.command';
import { HistoryCommand } from './commands/history.command';
import { IngestCommand } from './commands/ingest.command';
import { ProbeCommand } from './commands/probe.command';
import { ProjectCommand } from './commands/project.command';
import { RebuildCommand } from './commands/rebuild.command';
import { WithdrawCommand } from './commands/withdraw.command';

/** The editors' command line: the write side of the service, without HTTP. Its commands only send commands and print. */
@Module({})
export class IngestCliModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: IngestCliModule,
      imports: [
        CoreModule.register(config),
        CqrsModule.forRoot(),
        EventStoreModule,
        ListingsModule,
        ErrorEntriesModule,
        ModelsModule,
        ImportModule,
        ProjectionsModule.register({ runInBackground: false }),
        ProberModule,
      ],
      providers: [IngestCommand, WithdrawCommand, HistoryCommand, RebuildCommand, ExportCommand, ProjectCommand, ProbeCommand],
    };
  }
}
