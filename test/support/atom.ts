import FeedParser from 'feedparser';
import { Readable } from 'node:stream';

export interface ParsedFeed {
  meta: FeedParser.Meta;
  items: FeedParser.Item[];
}

/**
 * A feed document read by a real feed parser (feedparser, by default in strict XML mode: malformed XML fails;
 * in that mode it does not read RSS's camel-case pubDate, which the lenient mode does).
 */
export async function parseFeed(xml: string, strict = true): Promise<ParsedFeed> {
  const parser = new FeedParser({ strict });
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
