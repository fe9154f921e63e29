import { Command, CommandRunner, Option } from 'nest-commander';
import { EventStore } from '../../src/event-store/event-store.service';
import type { RevisedData, WithdrawnData } from '../../src/event-store/document-aggregate';
import { ERROR_ENTRY_AGGREGATE } from '../../src/error-reference/write/error-entry.aggregate';
import { LISTING_AGGREGATE } from '../../src/listings/write/listing.aggregate';
import { MODEL_ENTRY_AGGREGATE } from '../../src/models/write/model-entry.aggregate';

/** `history <slug>`: the events of a listing (or error entry, or model entry), oldest first, newest last. */
@Command({ name: 'history', arguments: '<id>', description: 'show the events of a listing (or of an error entry with --error, a model entry with --model)' })
export class HistoryCommand extends CommandRunner {
  constructor(private readonly store: EventStore) {
    super();
  }

  async run([id]: string[], options: { error?: boolean; model?: boolean }): Promise<void> {
    const events = await this.store.readAggregate(options.error ? ERROR_ENTRY_AGGREGATE : options.model ? MODEL_ENTRY_AGGREGATE : LISTING_AGGREGATE, id);
    if (events.length === 0) {
      console.error(`no events for ${options.error ? 'error entry' : options.model ? 'model entry' : 'listing'} ${id}`);
      process.exitCode = 2;
      return;
    }
    for (const event of events) {
      const data = event.data as Partial<RevisedData<object>> & Partial<WithdrawnData>;
      const extra = data.changedFields ? ` (${data.changedFields.join(', ')})` : data.reason ? ` (${data.reason})` : '';
      console.log(`v${event.version}  ${event.occurredAt}  ${event.type}${extra}  by ${event.actor}  [${event.position}]`);
    }
  }

  @Option({ flags: '--error', description: 'the id is an error entry id' })
  parseError(): boolean {
    return true;
  }

  @Option({ flags: '--model', description: 'the id is a model entry id' })
  parseModel(): boolean {
    return true;
  }
}
