import type { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { AppConfig } from '../../config/app-config';
import { formatProblem } from '../content/content-files';
import { EventStore } from '../../event-store/event-store.service';
import { ImportCatalogCommand } from './import-catalog.command';

/** On first start (empty event store), ingests the fixtures so the directory has content (the API and the MCP stdio server). */
export async function seedIfEmpty(app: INestApplicationContext, config: AppConfig): Promise<string | null> {
  return seedStoreIfEmpty(app.get(EventStore), app.get(CommandBus), config);
}

/** Ingests the fixtures into an empty event store; what it did, or null when the store was not empty. */
export async function seedStoreIfEmpty(store: EventStore, commands: CommandBus, config: AppConfig): Promise<string | null> {
  if ((await store.count()) > 0) return null;
  const report = await commands.execute(new ImportCatalogCommand([config.fixturesDir], 'seed'));
  if (report.problems.length > 0) {
    throw new Error(`fixtures are invalid, nothing was ingested:\n${report.problems.map(formatProblem).join('\n')}`);
  }
  const count = (kind: string) => report.results.filter((r) => r.kind === kind).length;
  const models = count('model') > 0 ? `, ${count('model')} model entries` : '';
  return `empty event store: ingested ${count('listing')} listings${models} and ${count('error-entry')} error entries from ${config.fixturesDir}`;
}
