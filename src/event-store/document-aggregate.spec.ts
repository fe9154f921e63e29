import { documentDigest } from './content-digest';
import { canonicalJson, diffFields, DocumentAggregate } from './document-aggregate';
import type { EventEnvelope } from './event-envelope';

interface Doc {
  slug: string;
  name: string;
  tags: string[];
}
const aggregate = new DocumentAggregate<Doc>('thing', { published: 'ThingPublished', revised: 'ThingRevised', withdrawn: 'ThingWithdrawn' });
const doc: Doc = { slug: 'a', name: 'A', tags: ['x'] };
const envelope = (type: string, version: number, data: unknown): EventEnvelope => ({
  id: `e${version}`,
  type,
  aggregateType: 'thing',
  aggregateId: 'a',
  version,
  occurredAt: '2026-01-01T00:00:00Z',
  actor: 'test',
  schemaVersion: 1,
  data,
});

describe('DocumentAggregate', () => {
  it('publishes a new document', () => {
    const decision = aggregate.decidePublish(aggregate.initial(), doc);
    expect(decision.outcome).toBe('published');
    expect(decision.events).toEqual([{ type: 'ThingPublished', data: { document: doc } }]);
  });

  it('produces no event for identical content, whatever the key order', () => {
    const state = aggregate.fold([envelope('ThingPublished', 1, { document: doc })]);
    const same = { tags: ['x'], name: 'A', slug: 'a' };
    expect(aggregate.decidePublish(state, same)).toEqual({ outcome: 'unchanged', events: [] });
  });

  it('revises with the names of the changed fields', () => {
    const state = aggregate.fold([envelope('ThingPublished', 1, { document: doc })]);
    const decision = aggregate.decidePublish(state, { ...doc, name: 'B' });
    expect(decision.outcome).toBe('revised');
    expect(decision.changedFields).toEqual(['name']);
    expect(decision.events[0].type).toBe('ThingRevised');
  });

  it('reports a conflict when the base version is stale and the content differs', () => {
    const state = aggregate.fold([envelope('ThingPublished', 1, { document: doc }), envelope('ThingRevised', 2, { document: { ...doc, name: 'B' } })]);
    const decision = aggregate.decidePublish(state, { ...doc, name: 'C' }, 1);
    expect(decision.outcome).toBe('conflict');
    expect(decision.events).toEqual([]);
  });

  it('treats a stale base version with the content already there as unchanged', () => {
    const state = aggregate.fold([envelope('ThingPublished', 1, { document: doc }), envelope('ThingRevised', 2, { document: { ...doc, name: 'B' } })]);
    expect(aggregate.decidePublish(state, { ...doc, name: 'B' }, 1).outcome).toBe('unchanged');
  });

  it('withdraws, and reports not-found for what is not there', () => {
    expect(aggregate.decideWithdraw(aggregate.initial(), null).outcome).toBe('not-found');
    const state = aggregate.fold([envelope('ThingPublished', 1, { document: doc })]);
    const decision = aggregate.decideWithdraw(state, 'gone');
    expect(decision.outcome).toBe('withdrawn');
    const after = aggregate.evolve(state, envelope('ThingWithdrawn', 2, { reason: 'gone' }));
    expect(after).toEqual({ version: 2, document: null });
    expect(aggregate.decidePublish(after, doc).outcome).toBe('published');
  });

  it('refuses events it does not know', () => {
    expect(() => aggregate.evolve(aggregate.initial(), envelope('Other', 1, {}))).toThrow(/unknown type 'Other'/);
  });
});

describe('canonicalJson and diffFields', () => {
  it('ignores key order but not array order', () => {
    expect(canonicalJson({ a: 1, b: { c: 2, d: 3 } })).toBe(canonicalJson({ b: { d: 3, c: 2 }, a: 1 }));
    expect(canonicalJson(['a', 'b'])).not.toBe(canonicalJson(['b', 'a']));
  });
  it('lists changed, added and removed fields', () => {
    expect(diffFields({ a: 1, b: 2, c: 3 }, { a: 1, b: 5, d: 4 })).toEqual(['b', 'd', 'c']);
  });

  it('names the digest of the document after its events: the caller\'s if given, none once withdrawn', () => {
    expect(aggregate.decidePublish(aggregate.initial(), doc).contentDigest).toBe(documentDigest(doc));
    const state = aggregate.fold([envelope('ThingPublished', 1, { document: doc })]);
    const revised = { ...doc, name: 'B' };
    expect(aggregate.decidePublish(state, revised).contentDigest).toBe(documentDigest(revised));
    expect(aggregate.decidePublish(state, revised, undefined, 'worked-out-already').contentDigest).toBe('worked-out-already');
    expect(aggregate.decidePublish(state, doc).contentDigest).toBeUndefined(); // unchanged: nothing appended
    expect(aggregate.decideWithdraw(state, null).contentDigest).toBeNull();
    expect(documentDigest({ ...doc, tags: ['y'] })).not.toBe(documentDigest(doc));
  });
});
