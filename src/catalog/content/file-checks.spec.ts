import fc from 'fast-check';
import { firstInvalidUtf8, lineAt, nestingProblem, repeatedKey } from './file-checks';

describe('firstInvalidUtf8', () => {
  const strict = new TextDecoder('utf-8', { fatal: true });
  const decodes = (bytes: Uint8Array) => {
    try {
      strict.decode(bytes);
      return true;
    } catch {
      return false;
    }
  };

  it.each<[string, number[], number]>([
    ['ASCII', [0x61, 0x62], -1],
    ['two, three and four byte characters', [0xc3, 0xa9, 0xe4, 0xb8, 0xad, 0xf0, 0x9f, 0x98, 0x80], -1],
    ['a lone continuation byte', [0x61, 0x80, 0x62], 1],
    ['a byte never used (FF)', [0x61, 0x62, 0xff], 2],
    ['an overlong form of "/"', [0xc0, 0xaf], 0],
    ['an overlong three-byte form', [0x61, 0xe0, 0x80, 0xaf], 1],
    ['a surrogate (U+D800)', [0xed, 0xa0, 0x80], 0],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['a sequence cut short by the end', [0x61, 0xe4, 0xb8], 1],
    ['a sequence cut short by ASCII', [0xe4, 0x61, 0x62], 0],
  ])('%s', (_, bytes, offset) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(offset);
  });

  it('agrees with a strict decoder on any bytes: -1 exactly when they decode, and everything before the offset decodes', () => {
    // Mostly bytes near the interesting ranges, so that valid multi-byte sequences come up often.
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x80, 0xbf, 0xc2, 0xe0, 0xed, 0xf0, 0xf4, 0x9f, 0xa0, 0x8f, 0x90));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 12 }), (list) => {
        const bytes = Uint8Array.from(list);
        const offset = firstInvalidUtf8(bytes);
        if (offset === -1) return decodes(bytes);
        return !decodes(bytes) && decodes(bytes.subarray(0, offset)) && !decodes(bytes.subarray(0, offset + 4).subarray(offset));
      }),
      { numRuns: 20_000 },
    );
  });

  it('gives the line of an offset', () => {
    const bytes = Buffer.from('a\nb\nc\xff', 'latin1');
    expect(lineAt(bytes, bytes.length - 1)).toBe(3);
  });
});

describe('nestingProblem', () => {
  const nested = (levels: number): unknown => {
    let value: unknown = 'leaf';
    for (let i = 1; i < levels; i++) value = [value];
    return { note: value };
  };

  it('accepts up to the limit and names the path where it is passed', () => {
    expect(nestingProblem(nested(4), 5)).toBeNull();
    expect(nestingProblem(nested(5), 5)).toBeNull();
    expect(nestingProblem(nested(6), 5)).toEqual({ field: 'note.0.0.0.0', reason: 'nested more than 5 levels deep (lists and mappings inside each other)' });
  });

  it('stops at the limit on a document 100,000 levels deep', () => {
    expect(nestingProblem(nested(100_000))?.field).toMatch(/^note(\.0)+$/);
  });

  it('reports a document that holds itself, and accepts one value under two names', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.again = { inner: loop };
    expect(nestingProblem(loop)?.reason).toMatch(/contains itself/);
    const shared = ['x', 'y'];
    expect(nestingProblem({ features: shared, sdks: shared })).toBeNull();
  });
});

describe('repeatedKey', () => {
  it('finds a key given twice in one object, at any depth, with its line', () => {
    expect(repeatedKey('{"a": 1,\n "b": {"c": 2,\n "c": 3}}')).toEqual({ key: 'c', line: 3 });
    expect(repeatedKey('{"a": 1, "a": 2}')).toEqual({ key: 'a', line: 1 });
    expect(repeatedKey('{"k\\"ey": 1, "k\\"ey": 2}')).toEqual({ key: 'k"ey', line: 1 });
  });
  it('finds none where keys repeat only across objects, or values repeat', () => {
    expect(repeatedKey('[{"a": 1}, {"a": 2}]')).toBeNull();
    expect(repeatedKey('{"a": {"a": "a"}, "b": ["a", "a"], "c": "{\\"a\\":1,\\"a\\":2}"}')).toBeNull();
  });
});
