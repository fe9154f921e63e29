import type { Category } from '../../catalog/category-catalog';
import type { ListingDocument } from '../../listings/listing.document';
import type { RedisClient } from '../../redis/create-client';
import { PostingScorer, TermNumbering } from '../../search/search-index.writer';
import { RespWriter, sendEncoded } from '../../redis/resp-writer';
import { appendRestoreSortedSet, PayloadMembers } from '../../redis/sorted-set-dump';

/**
 * A rebuild's search index, gathered whole and written one term at a time with RESTORE (see
 * sorted-set-dump.ts for why). Builders tokenise on their threads and hand their postings over packed;
 * this thread keeps them (16 bytes a posting) until every share is indexed, then orders each term's list
 * and writes it while the builders render.
 */

/** The postings of one share of listings, packed for the trip from a builder thread. */
export interface PackedPostings {
  terms: string[];
  /** (term index into `terms`, listing index into the share's cards) for each posting. */
  pairs: Int32Array;
  scores: Float64Array;
}

/** Builder side: collects a share's postings. */
export class PostingPacker {
  /** The share's terms, numbered as the scorer counts them and as the pairs refer to them. */
  private readonly numbering = new TermNumbering();
  /** Postings so far (their pairs and scores fill the front of the arrays, which double when full). */
  private count = 0;
  private pairs = new Int32Array(2 << 15);
  private scores = new Float64Array(1 << 15);
  private readonly scorer = new PostingScorer();
  private listing = 0;
  private readonly emit = (term: number, score: number): void => {
    if (this.count === this.scores.length) this.grow();
    this.pairs[2 * this.count] = term;
    this.pairs[2 * this.count + 1] = this.listing;
    this.scores[this.count++] = score;
  };

  /** Tokenises and scores a listing (see listingPostings) into the share's postings as its `listing`-th card. */
  add(listing: number, document: ListingDocument, category: Category | undefined): void {
    this.listing = listing;
    this.scorer.score(document, category, this.numbering.numberOf, this.emit);
  }

  pack(): PackedPostings {
    return { terms: this.numbering.terms, pairs: this.pairs.slice(0, 2 * this.count), scores: this.scores.slice(0, this.count) };
  }

  private grow(): void {
    const pairs = new Int32Array(this.pairs.length * 2);
    pairs.set(this.pairs);
    const scores = new Float64Array(this.scores.length * 2);
    scores.set(this.scores);
    this.pairs = pairs;
    this.scores = scores;
  }
}

/** Bytes of commands sent at a time (the next ones are encoded while Redis loads these). */
const PIPELINE_BYTES = 8 << 20;

/** Projector side: every share's postings, then written term by term. */
export class PostingLists {
  private readonly termNumbers = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly counts: number[] = [];
  private readonly slugs: string[] = [];
  /** What each share's postings are kept as until written: their term numbers here, listings, scores. */
  private shares: Array<{ termMap: Int32Array; firstSlug: number; pairs: Int32Array; scores: Float64Array }> = [];

  /** Takes a share's postings; `slugs` are its cards' slugs, in the order the pairs refer to. */
  add(slugs: string[], postings: PackedPostings): void {
    const firstSlug = this.slugs.length;
    for (const slug of slugs) this.slugs.push(slug);
    const termMap = new Int32Array(postings.terms.length);
    postings.terms.forEach((term, i) => {
      let number = this.termNumbers.get(term);
      if (number === undefined) {
        number = this.terms.push(term) - 1;
        this.termNumbers.set(term, number);
        this.counts.push(0);
      }
      termMap[i] = number;
    });
    const { pairs } = postings;
    for (let i = 0; i < pairs.length; i += 2) this.counts[termMap[pairs[i]]]++;
    this.shares.push({ termMap, firstSlug, pairs, scores: postings.scores });
  }

  /** Every term of the postings gathered, once each. */
  get allTerms(): readonly string[] {
    return this.terms;
  }

  /** Postings gathered. */
  get size(): number {
    return this.counts.reduce((sum, count) => sum + count, 0);
  }

  /**
   * Writes every term's sorted set into a new generation: RESTORE when `restore`, else ZADD.
   * Members go from the greatest (score, slug) down, the order in which Redis loads a set fastest.
   */
  async write(client: RedisClient, keyOf: (term: string) => string, restore: boolean): Promise<void> {
    const { order, scale, ranked } = this.ordered();
    // Members as the payloads or the ZADDs hold them, encoded once.
    const members = new PayloadMembers(restore ? ranked.map((slug) => Buffer.from(slug)) : []);
    const encoder = new RespWriter(256);
    const zaddMembers = restore ? [] : ranked.map((slug) => encoder.encodeString(slug));
    const offsets = this.offsets();
    let longest = 0;
    for (const count of this.counts) longest = Math.max(longest, count);
    const ranks = new Int32Array(longest);
    const scores = new Float64Array(longest);
    const writers = [new RespWriter(PIPELINE_BYTES * 2), new RespWriter(PIPELINE_BYTES * 2)];
    let writer = writers[0];
    let inFlight: Promise<void> = Promise.resolve();
    const send = async (): Promise<void> => {
      await inFlight; // the other writer's pipeline
      inFlight = sendEncoded(client, writer);
      inFlight.catch(() => undefined);
      // The other writer's pipeline was answered (awaited above): its memory can be written again.
      writer = writer === writers[0] ? writers[1] : writers[0];
      writer.reset();
    };
    try {
      for (let term = 0; term < this.terms.length; term++) {
        const start = offsets[term];
        const count = this.counts[term];
        const list = order.subarray(start, start + count).sort();
        // Ascending after the sort: read from the end for the greatest first.
        for (let i = 0; i < count; i++) {
          const key = list[count - 1 - i];
          const score = Math.floor(key / scale);
          scores[i] = score;
          ranks[i] = key - score * scale;
        }
        const key = keyOf(this.terms[term]);
        if (restore) appendRestoreSortedSet(writer, key, members, ranks, scores, count);
        else {
          for (let from = 0; from < count; from += 1000) {
            const to = Math.min(count, from + 1000);
            writer.begin('zadd', key, 1 + 2 * (to - from));
            for (let i = from; i < to; i++) writer.integer(scores[i]).encoded(zaddMembers[ranks[i]]);
            writer.end();
          }
        }
        if (writer.size >= PIPELINE_BYTES) await send();
      }
      if (writer.size > 0) await send();
      await inFlight;
    } finally {
      // Whatever failed, nothing of this write is still on its way once it returns (see settle()).
      await inFlight.catch(() => undefined);
    }
  }

  /** Where each term's postings start in `ordered`'s array. */
  private offsets(): Float64Array {
    const offsets = new Float64Array(this.terms.length);
    let total = 0;
    this.counts.forEach((count, term) => {
      offsets[term] = total;
      total += count;
    });
    return offsets;
  }

  /**
   * Every posting as one number, grouped by term: score * scale + the slug's rank, so a plain numeric
   * sort orders a term's list by score, then slug (what Redis compares); `ranked` are the slugs by rank
   * (slugs are ASCII by validation, so string order is byte order). Frees the shares.
   */
  private ordered(): { order: Float64Array; scale: number; ranked: string[] } {
    const slugs = this.slugs;
    const byRank = slugs.map((_, i) => i).sort((a, b) => (slugs[a] < slugs[b] ? -1 : slugs[a] > slugs[b] ? 1 : 0));
    const rankOf = new Int32Array(slugs.length);
    byRank.forEach((slug, rank) => (rankOf[slug] = rank));
    let scale = 1;
    while (scale < this.slugs.length) scale *= 2;
    let highest = 0;
    for (const { scores } of this.shares) for (const score of scores) if (score > highest) highest = score;
    if (highest * scale + scale > Number.MAX_SAFE_INTEGER) {
      throw new Error(`index scores up to ${highest} for ${this.slugs.length} listings do not fit the rebuild's posting keys`);
    }
    const offsets = this.offsets();
    const order = new Float64Array(this.size);
    for (const { termMap, firstSlug, pairs, scores } of this.shares) {
      for (let i = 0, p = 0; i < pairs.length; i += 2, p++) {
        const term = termMap[pairs[i]];
        order[offsets[term]++] = scores[p] * scale + rankOf[firstSlug + pairs[i + 1]];
      }
    }
    this.shares = [];
    return { order, scale, ranked: byRank.map((slug) => slugs[slug]) };
  }
}
