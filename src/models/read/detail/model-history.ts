import type { ModelChange } from '../../../contract/model-views';
import { listingAggregate } from '../../../listings/write/listing.aggregate';
import { modelEntryId } from '../../views/model-views';
import type { ListingDocument } from '../../../listings/write/listing.document';
import type { ListingTimeline } from '../../../listings/read/timeline/listing-timeline';

type Offer = NonNullable<ListingDocument['models']>[number];

/** The facts of an offer whose changes a model's history tells (sources aside: a new check is not a change). */
const TRACKED = ['prices', 'contextTokens', 'maxOutputTokens', 'lifecycle'] as const;
const MAX_CHANGES = 100;

/**
 * A model's history from the event log: for each listing that serves it, the revisions that changed its
 * offer's prices, context, output or lifecycle (or added or removed the offer), with the values before
 * and after, newest first. Each listing has a few events; the answer is kept in the read cache.
 */
export async function modelHistory(id: string, listings: string[], timeline: ListingTimeline): Promise<ModelChange[]> {
  const changes: ModelChange[] = [];
  for (const slug of listings) {
    let before: Offer | null = null;
    for (const event of await timeline.events(slug)) {
      const document = listingAggregate.documentAfter(event);
      const offer = document?.models?.find((model) => modelEntryId(slug, model) === id) ?? null;
      const at = { occurredAt: event.occurredAt, listing: slug, modelId: offer?.id ?? before?.id ?? id };
      if (offer && before) {
        for (const field of TRACKED) {
          const [was, is] = [factOf(before[field]), factOf(offer[field])];
          if (JSON.stringify(was) !== JSON.stringify(is)) changes.push({ ...at, field, before: was, after: is });
        }
      } else if (offer || before) {
        changes.push({ ...at, field: 'offer', before: before && summaryOf(before), after: offer && summaryOf(offer) });
      }
      before = offer;
    }
  }
  return changes.sort((a, b) => (a.occurredAt < b.occurredAt ? 1 : a.occurredAt > b.occurredAt ? -1 : 0)).slice(0, MAX_CHANGES);
}

/** A fact without its sources (a new check of the same figure is no change). */
function factOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(factOf);
  if (value === null || typeof value !== 'object') return value ?? null;
  return Object.fromEntries(Object.entries(value).filter(([key, field]) => key !== 'source' && field !== null && field !== undefined).map(([key, field]) => [key, factOf(field)]));
}

function summaryOf(offer: Offer): unknown {
  return { id: offer.id, prices: factOf(offer.prices), contextTokens: offer.contextTokens, lifecycle: factOf(offer.lifecycle) };
}
