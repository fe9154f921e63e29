/**
 * Index terms within `maxEdits` of a word, for typo tolerance: optimal string alignment distance (insert,
 * delete, substitute, swap two neighbours), computed over the sorted term list as over a trie. Terms that
 * share a prefix share the rows of the distance table for it, and once every cell of a row exceeds
 * `maxEdits` no term with that prefix can match, so the scan jumps past them all. It needs no index of
 * its own: a table of deletion variants, as Redis held it, would take millions of entries at 100,000
 * listings.
 *
 * Only terms of letters a-z and 3+ characters are candidates (not Chinese, not numbers or versions).
 */
export function termsWithinEdits(sorted: readonly string[], word: string, maxEdits: number): Array<{ term: string; edits: number }> {
  const found: Array<{ term: string; edits: number }> = [];
  const width = word.length + 1;
  const codes = Int32Array.from(word, (c) => c.charCodeAt(0));
  const longest = word.length + maxEdits;
  // rows[d] is the table row after the term's first d characters (row 0: the empty prefix).
  const rows: Int32Array[] = [];
  for (let d = 0; d <= longest; d++) rows.push(new Int32Array(width));
  for (let j = 0; j < width; j++) rows[0][j] = j;
  let i = lowerBound(sorted, 'a');
  const end = lowerBound(sorted, '{'); // '{' follows 'z': terms starting a-z lie in [i, end)
  let previous = '';
  while (i < end) {
    const term = sorted[i];
    let shared = 0;
    const limit = Math.min(previous.length, term.length, longest);
    while (shared < limit && previous.charCodeAt(shared) === term.charCodeAt(shared)) shared++;
    let depth = shared;
    let pruned = false;
    while (depth < Math.min(term.length, longest)) {
      const row = rows[depth + 1];
      const above = rows[depth];
      const c = term.charCodeAt(depth);
      const before = depth > 0 ? term.charCodeAt(depth - 1) : -1;
      const twoAbove = depth > 0 ? rows[depth - 1] : above;
      row[0] = depth + 1;
      let rowMin = row[0];
      for (let j = 1; j < width; j++) {
        const w = codes[j - 1];
        let v = above[j - 1] + (c === w ? 0 : 1);
        if (above[j] + 1 < v) v = above[j] + 1;
        if (row[j - 1] + 1 < v) v = row[j - 1] + 1;
        // A swap of neighbours: this character is the word's previous one, and the term's previous is this one.
        if (j > 1 && c === codes[j - 2] && before === w && twoAbove[j - 2] + 1 < v) v = twoAbove[j - 2] + 1;
        row[j] = v;
        if (v < rowMin) rowMin = v;
      }
      depth++;
      if (rowMin > maxEdits) {
        pruned = true;
        break;
      }
    }
    if (pruned) {
      // No term that starts with these `depth` characters can be close enough: skip them all (to the first
      // term after the prefix with its last character raised by one; a one-byte string compares quickly).
      const prefix = term.slice(0, depth);
      i = gallop(sorted, prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(depth - 1) + 1), i + 1);
      previous = prefix;
      continue;
    }
    if (term.length <= longest && term.length >= 3) {
      const edits = rows[term.length][word.length];
      if (edits > 0 && edits <= maxEdits && /^[a-z]+$/.test(term)) found.push({ term, edits });
    }
    previous = term;
    i++;
  }
  return found;
}

/** The first index in `sorted` (from `from`, before `to`) whose value is not below `value`. */
export function lowerBound(sorted: readonly string[], value: string, from = 0, to = sorted.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * lowerBound for a value that is likely near `from`: steps of 1, 2, 4... then a binary search in the last
 * step. Most skips of the scan above pass a few terms, and this reads a few rather than the whole list's log.
 */
function gallop(sorted: readonly string[], value: string, from: number): number {
  let step = 1;
  let hi = from;
  while (hi < sorted.length && sorted[hi] < value) {
    from = hi + 1;
    hi += step;
    step *= 2;
  }
  return lowerBound(sorted, value, from, Math.min(hi, sorted.length));
}
