import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AppConfig } from '../../config/app-config';
import { EventStore } from '../../event-store/event-store.service';
import { ProjectionState } from '../../projections/projection-state';
import { seedStoreIfEmpty } from './seed-if-empty';

/**
 * RESEED_EMPTY_STORE=on: when the store a serving process was serving is found empty (Redis restarted
 * without its data), it seeds fixtures/ again, as at a first start. Off by default: an emptied store
 * lost what editors wrote, and the operator decides whether fixtures/ is what to serve (or restores a
 * backup). Several processes may seed at once: the import is idempotent, each document is written once.
 */
@Injectable()
export class ReseedEmptyStore implements OnApplicationBootstrap {
  private readonly logger = new Logger('store');
  private seeding = false;

  constructor(
    private readonly config: AppConfig,
    private readonly projection: ProjectionState,
    private readonly store: EventStore,
    private readonly commands: CommandBus,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.reseedEmptyStore) this.projection.onStoreEmptied(() => void this.reseed());
  }

  private async reseed(): Promise<void> {
    if (this.seeding) return;
    this.seeding = true;
    this.logger.warn('the store this process was serving is empty: seeding it again (RESEED_EMPTY_STORE=on)');
    try {
      const seeded = await seedStoreIfEmpty(this.store, this.commands, this.config);
      if (seeded) this.logger.log(seeded);
    } catch (error) {
      this.logger.error(`seeding the emptied store failed: ${(error as Error).message}`);
    } finally {
      this.seeding = false;
    }
  }
}
