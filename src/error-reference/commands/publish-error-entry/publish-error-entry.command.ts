import type { ErrorEntryDocument } from '../../error-entry.document';

/** Publish an error-reference entry, or revise it with a full new document. */
export class PublishErrorEntryCommand {
  constructor(
    readonly entry: ErrorEntryDocument,
    readonly actor: string,
    readonly baseVersion?: number,
    /** The document's documentDigest, when the caller worked it out already (bulk import). */
    readonly contentDigest?: string,
  ) {}
}
