import type { ListingDocument } from '../../listing.document';

/** Publish a listing, or revise it with a full new document. Identical content produces no event. */
export class PublishListingCommand {
  constructor(
    readonly listing: ListingDocument,
    readonly actor: string,
    /** Version the editor's change is based on; a newer version in the store is a reported conflict. */
    readonly baseVersion?: number,
    /** The document's documentDigest, when the caller worked it out already (bulk import). */
    readonly contentDigest?: string,
  ) {}
}
