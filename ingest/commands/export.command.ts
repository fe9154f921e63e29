import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommandRunner } from 'nest-commander';
import { stringify } from 'yaml';
import { runPool } from '../../src/catalog/catalog-import.service';
import { CategoryCatalog } from '../../src/catalog/category-catalog';
import { EventStore } from '../../src/event-store/event-store.service';
import { errorEntryAggregate, ERROR_ENTRY_AGGREGATE } from '../../src/error-reference/error-entry.aggregate';
import { ErrorEntryDocument } from '../../src/error-reference/error-entry.document';
import { listingAggregate, LISTING_AGGREGATE } from '../../src/listings/listing.aggregate';

/**
 * `export <folder>`: writes the current catalog, from the event store, as editor files
 * (`listings/<slug>.yaml`, `errors/<id>.yaml`, `categories.yaml`) that re-ingest as `unchanged`.
 */
@Command({ name: 'export', arguments: '<folder>', description: 'write the current catalog as files that re-ingest as unchanged' })
export class ExportCommand extends CommandRunner {
  constructor(
    private readonly store: EventStore,
    private readonly categories: CategoryCatalog,
  ) {
    super();
  }

  async run([folder]: string[]): Promise<void> {
    mkdirSync(join(folder, 'listings'), { recursive: true });
    mkdirSync(join(folder, 'errors'), { recursive: true });
    writeFileSync(join(folder, 'categories.yaml'), toYaml(this.categories.all));
    const slugs = [...(await this.store.versionsOf(LISTING_AGGREGATE)).keys()].sort();
    const listings = await runPool(
      slugs.map((slug) => async () => listingAggregate.fold(await this.store.readAggregate(LISTING_AGGREGATE, slug)).document),
      32,
    );
    let listingCount = 0;
    for (const listing of listings) {
      if (!listing) continue;
      writeFileSync(join(folder, 'listings', `${listing.slug}.yaml`), toYaml(listing));
      listingCount++;
    }
    const ids = [...(await this.store.versionsOf(ERROR_ENTRY_AGGREGATE)).keys()].sort();
    let entryCount = 0;
    for (const id of ids) {
      const entry = errorEntryAggregate.fold(await this.store.readAggregate(ERROR_ENTRY_AGGREGATE, id)).document;
      if (!entry) continue;
      writeFileSync(join(folder, 'errors', `${id}.yaml`), toYaml(withoutNulls(entry)));
      entryCount++;
    }
    console.log(`exported ${listingCount} listings and ${entryCount} error entries to ${folder}`);
  }
}

function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0 });
}

/** Optional fields that are null are left out, as an editor would. */
function withoutNulls(entry: ErrorEntryDocument): Partial<ErrorEntryDocument> {
  return Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== null));
}
