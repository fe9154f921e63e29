import { ApiProblem } from './problem';
import { parseIds } from '../listings/read/compare/compare-params';
import { parseLimit, single } from './query-params';

describe('query parameters', () => {
  it('limit: default 20, clamp to 100, 400 for non-integers and values below 1', () => {
    expect(parseLimit(undefined)).toBe(20);
    expect(parseLimit('7')).toBe(7);
    expect(parseLimit('100')).toBe(100);
    expect(parseLimit('101')).toBe(100);
    expect(parseLimit('10000000000')).toBe(100);
    expect(parseLimit('9'.repeat(400))).toBe(100);
    expect(() => parseLimit('0000000000')).toThrow(/at least 1/);
    for (const bad of ['abc', '0', '-1', '1.5', '1e2', '0x10']) {
      expect(() => parseLimit(bad)).toThrow(ApiProblem);
    }
  });

  it('limit: a read may set its own default and maximum', () => {
    expect(parseLimit(undefined, 100, 1000)).toBe(100);
    expect(parseLimit('500', 100, 1000)).toBe(500);
    expect(parseLimit('5000', 100, 1000)).toBe(1000);
    expect(() => parseLimit('0', 100, 1000)).toThrow(/at least 1/);
  });

  it('ids: 2 to 10 distinct slugs, case and blanks ignored', () => {
    expect(parseIds('a, B ,a,c')).toEqual(['a', 'b', 'c']);
    expect(() => parseIds(undefined)).toThrow(/required/);
    expect(() => parseIds('a,a')).toThrow(/2 to 10/);
    expect(() => parseIds(Array.from({ length: 11 }, (_, i) => `s${i}`).join(','))).toThrow(/2 to 10/);
  });

  it('a parameter given twice is an error', () => {
    expect(() => single({ q: ['a', 'b'] }, 'q')).toThrow(/once/);
    expect(single({ q: 'a' }, 'q')).toBe('a');
  });
});
