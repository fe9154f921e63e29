import { Query } from '@nestjs/cqrs';
import type { StoredBody } from '../http/stored-body';

/** GET /llms.txt (the directory for a language model: what it is, how to reach it, its APIs by category), or /llms-full.txt. */
export class GetLlmsTextQuery extends Query<StoredBody> {
  constructor(
    /** llms-full.txt: every listing's facts in full, rather than one line each. */
    readonly full: boolean,
    /** Absolute links start with this (see baseUrlOf). */
    readonly baseUrl: string,
    /** Who asks: a render the cache cannot answer spends from its search budget (null: nobody's). */
    readonly client: string | null = null,
  ) {
    super();
  }
}
