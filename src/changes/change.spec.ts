import type { StoredEvent } from '../event-store/event-envelope';
import { decodeChangeCursor } from './change-cursor';
import { describeEvent } from './change';

const event = (overrides: Partial<StoredEvent>): StoredEvent => ({
  id: '6f1c2a52-54a1-4b8e-9d55-1b7c1a0f3e10',
  type: 'ListingRevised',
  aggregateType: 'listing',
  aggregateId: 'openai',
  version: 3,
  occurredAt: '2026-11-23T10:00:00.000Z',
  actor: 'jane.editor',
  schemaVersion: 1,
  data: { document: { slug: 'openai', name: 'OpenAI API' }, changedFields: ['pricing'] },
  position: '1764000000000-2',
  ...overrides,
});

describe('a change of the feed', () => {
  it('says what an event did, where it sits, and where the thing is now; never who did it', () => {
    const described = describeEvent(event({}))!;
    expect(described.change).toEqual({
      cursor: expect.any(String),
      type: 'revised',
      kind: 'listing',
      id: 'openai',
      version: 3,
      occurredAt: '2026-11-23T10:00:00.000Z',
      changedFields: ['pricing'],
      // An event recorded before `before` was kept, and no previous document given: the value before is unknown.
      changes: [{ field: 'pricing', before: null, after: null }],
      reason: null,
      replacedBy: null,
      _links: { self: '/api/v1/tools/openai' },
    });
    expect(decodeChangeCursor(described.change.cursor)).toBe('1764000000000-2');
    expect(described).toMatchObject({ eventId: '6f1c2a52-54a1-4b8e-9d55-1b7c1a0f3e10', name: 'OpenAI API' });
    expect(JSON.stringify(described)).not.toContain('jane');
  });

  it('gives each changed field its value before and after, from the event or from the document before it', () => {
    const recorded = describeEvent(event({ data: { document: { slug: 'openai', pricing: 'new' }, changedFields: ['pricing', 'note'], before: { pricing: 'old', note: 'x' } } }))!;
    expect(recorded.change.changes).toEqual([{ field: 'pricing', before: 'old', after: 'new' }]);
    expect(recorded.change.changedFields).toEqual(['pricing']);
    const older = describeEvent(event({ data: { document: { slug: 'openai', pricing: 'new' }, changedFields: ['pricing'] } }), { slug: 'openai', pricing: 'older' })!;
    expect(older.change.changes).toEqual([{ field: 'pricing', before: 'older', after: 'new' }]);
  });

  it('names what replaces a withdrawn listing', () => {
    const withdrawn = describeEvent(event({ type: 'ListingWithdrawn', data: { reason: 'merged', replacedBy: ['google-maps'] } }))!;
    expect(withdrawn.change).toMatchObject({ type: 'withdrawn', reason: 'merged', replacedBy: ['google-maps'], changes: null });
  });

  it('links an error entry to its provider, from the document before a withdrawal (which carries none)', () => {
    const withdrawn = describeEvent(
      event({ type: 'ErrorEntryWithdrawn', aggregateType: 'error-entry', aggregateId: 'openai-429-rate-limit-exceeded', data: { reason: null } }),
      { provider: 'openai', title: 'Rate limit exceeded' },
    )!;
    expect(withdrawn.change).toMatchObject({ type: 'withdrawn', kind: 'error-entry', reason: null, changedFields: null });
    expect(withdrawn.change._links).toEqual({ self: '/api/v1/errors?provider=openai', listing: '/api/v1/tools/openai' });
    expect(withdrawn.name).toBeNull();
  });

  it('leaves out events it does not know, and events of a type under another aggregate', () => {
    expect(describeEvent(event({ type: 'ListingTeleported' }))).toBeNull();
    expect(describeEvent(event({ aggregateType: 'error-entry' }))).toBeNull();
    expect(describeEvent(event({ type: 'CategoryRenamed', aggregateType: 'category' }))).toBeNull();
  });
});
