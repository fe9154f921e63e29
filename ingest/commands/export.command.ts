import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommandRunner } from 'nest-commander';
import { stringify } from 'yaml';
import { Categories } from '../../src/categories/categories';
import { EventStore } from '../../src/event-store/event-store.service';
import { errorEntryAggregate, ERROR_ENTRY_AGGREGATE } from '../../src/error-reference/write/error-entry.aggregate';
import { BASED_ON_FIELD } from '../../src/catalog/content/content-files';
import { listingAggregate, LISTING_AGGREGATE } from '../../src/listings/write/listing.aggregate';
import { modelEntryAggregate, MODEL_ENTRY_AGGREGATE } from '../../src/models/write/model-entry.aggregate';

/**
 * `export <folder>`: writes the current catalog, from the event store, as editor files
 * (`listings/<slug>.yaml`, `models/<id>.yaml`, `errors/<id>.yaml`, `categories.yaml`, `tasks.yaml`) that re-ingest as `unchanged`. Each file
 * starts with `basedOnVersion`: an import of it after someone else changed the document is refused
 * instead of undoing their change.
 */
@Command({ name: 'export', arguments: '<folder>', description: 'write the current catalog as files that re-ingest as unchanged' })
export class ExportCommand extends CommandRunner {
  constructor(
    private readonly store: EventStore,
    private readonly categories: Categories,
  ) {
    super();
  }

  async run([folder]: string[]): Promise<void> {
    mkdirSync(join(folder, 'listings'), { recursive: true });
    mkdirSync(join(folder, 'errors'), { recursive: true });
    writeFileSync(join(folder, 'categories.yaml'), toYaml(this.categories.all));
    if (this.categories.tasks.length > 0) writeFileSync(join(folder, 'tasks.yaml'), toYaml(this.categories.tasks));
    let listingCount = 0;
    const versions = await this.store.versionsByType();
    const basedOn = (type: string, id: string) => ({ [BASED_ON_FIELD]: versions.get(type)!.get(id)! });
    for await (const [slug, listing] of this.store.documentsOfType(listingAggregate, '+', { sorted: true })) {
      writeFileSync(join(folder, 'listings', `${slug}.yaml`), toYaml({ ...basedOn(LISTING_AGGREGATE, slug), ...listing }));
      listingCount++;
    }
    let modelCount = 0;
    for await (const [id, entry] of this.store.documentsOfType(modelEntryAggregate, '+', { sorted: true })) {
      if (modelCount === 0) mkdirSync(join(folder, 'models'), { recursive: true });
      writeFileSync(join(folder, 'models', `${id}.yaml`), toYaml({ ...basedOn(MODEL_ENTRY_AGGREGATE, id), ...withoutNulls(entry) }));
      modelCount++;
    }
    let entryCount = 0;
    for await (const [id, entry] of this.store.documentsOfType(errorEntryAggregate, '+', { sorted: true })) {
      writeFileSync(join(folder, 'errors', `${id}.yaml`), toYaml({ ...basedOn(ERROR_ENTRY_AGGREGATE, id), ...withoutNulls(entry) }));
      entryCount++;
    }
    const models = modelCount > 0 ? `, ${modelCount} model entries` : '';
    console.log(`exported ${listingCount} listings${models} and ${entryCount} error entries to ${folder}`);
  }
}

function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0 });
}

/** An error entry's optional fields that are null are left out, as an editor would. */
function withoutNulls(document: object): object {
  return Object.fromEntries(Object.entries(document).filter(([, v]) => v !== null));
}
