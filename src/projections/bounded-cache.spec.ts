import { storedBody } from './read-model-body';
import { BoundedCache, ENTRY_OVERHEAD } from './bounded-cache';
import { storedBodyBytes } from './read-model.reader';

it('forgets the oldest entries beyond its number of entries', () => {
  const cache = new BoundedCache<number>(3);
  for (let i = 0; i < 5; i++) cache.set(`k${i}`, i);
  expect(['k0', 'k1', 'k2', 'k3', 'k4'].map((k) => cache.has(k))).toEqual([false, false, true, true, true]);
  cache.set('k3', 33); // replacing an entry forgets nothing else
  expect(cache.usage.entries).toBe(3);
  expect(cache.get('k3')).toBe(33);
  expect(cache.get('k2')).toBe(2);
});

it('keeps what it holds within its bytes, forgetting the oldest first', () => {
  // Sizes below are what an entry costs in all: its value, its key (one character) and the overhead.
  const cache = new BoundedCache<string>(1000, 100, (value) => value.length - ENTRY_OVERHEAD);
  const sizes = [30, 50, 10, 40, 20, 60, 5, 90, 1];
  sizes.forEach((size, i) => {
    cache.set(`${i}`, 'x'.repeat(size - 1));
    expect(cache.usage.bytes).toBeLessThanOrEqual(100);
    expect(cache.get(`${i}`)).toHaveLength(size - 1);
    // What is kept is the newest entries that fit, and their bytes add up.
    let total = 0;
    for (let j = i; j >= 0 && cache.has(`${j}`); j--) total += sizes[j];
    expect(cache.usage.bytes).toBe(total);
    expect(cache.usage.entries).toBe(sizes.slice(0, i + 1).filter((_, j) => cache.has(`${j}`)).length);
  });
  // Held now: '6' (5 bytes), '7' (90), '8' (1). Replaced by a larger value, '8' is counted once, at its new
  // size (10), and the oldest entry makes room for it.
  expect(['6', '7', '8'].every((k) => cache.has(k))).toBe(true);
  cache.set('8', 'x'.repeat(9));
  expect(cache.usage).toEqual({ entries: 2, bytes: 100 });
  expect(cache.has('6')).toBe(false);
  expect(cache.has('7')).toBe(true);
  cache.clear();
  expect(cache.usage).toEqual({ entries: 0, bytes: 0 });
});

it('does not keep an entry larger than all its bytes, nor forget others for it', () => {
  const cache = new BoundedCache<string>(10, 200, (value) => value.length); // 'a' and 'b' fit together
  cache.set('a', 'x'.repeat(20));
  cache.set('b', 'x'.repeat(10));
  cache.set('huge', 'x'.repeat(200));
  expect(cache.has('huge')).toBe(false);
  expect(cache.get('a')).toHaveLength(20);
  // A key replaced by a value too large to keep is gone, not left with its old value.
  cache.set('a', 'x'.repeat(200));
  expect(cache.has('a')).toBe(false);
  expect(cache.usage).toEqual({ entries: 1, bytes: 10 + 1 + ENTRY_OVERHEAD });
});

it('counts a body with room for its compressed forms', () => {
  const stored = storedBody(JSON.stringify({ text: 'x'.repeat(1000) }));
  expect(storedBodyBytes(stored)).toBeGreaterThanOrEqual(stored.body.length * 1.75);
  expect(storedBodyBytes(null)).toBe(0);
});
