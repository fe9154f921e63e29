import FeedParser from 'feedparser';
import { Readable } from 'node:stream';

export interface ParsedFeed {
  meta: FeedParser.Meta;
  items: FeedParser.Item[];
}

/** A feed document read by a real feed parser (feedparser, in strict XML mode: malformed XML fails). */
export async function parseFeed(xml: string): Promise<ParsedFeed> {
  const parser = new FeedParser({ strict: true });
  const items: FeedParser.Item[] = [];
  const done = new Promise<void>((resolve, reject) => {
    parser.on('error', reject);
    parser.on('readable', function (this: FeedParser) {
      for (let item = this.read(); item; item = this.read()) items.push(item);
    });
    parser.on('end', () => resolve());
  });
  Readable.from([xml]).pipe(parser);
  await done;
  return { meta: parser.meta, items };
}
