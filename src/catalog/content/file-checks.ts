/**
 * Checks on an editor's file that come before its schema: the bytes are UTF-8, and the document is not
 * nested without end. Plain functions (they run on reader threads too).
 */

/** Largest content file read, in bytes, checked before reading it: a listing is about 5 KB, the largest valid one under 100 KB. */
export const MAX_FILE_BYTES = 1024 * 1024;

/**
 * Deepest nesting of mappings and lists in a file (the document itself is level 1). A listing needs 3
 * (codeExamples, an example, its fields); deeper documents are refused before validation, which walks
 * them recursively and ran out of stack on a few thousand levels.
 */
export const MAX_NESTING_DEPTH = 32;

/**
 * Byte offset of the first byte sequence that is not well-formed UTF-8 (Unicode, table 3-7: no overlong
 * forms, no surrogates, nothing above U+10FFFF, no truncated sequence), or -1 when there is none.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    let following: number;
    // The second byte's range depends on the lead byte; the later ones are always 80-BF.
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) following = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      following = 2;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      following = 3;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k <= following; k++) {
      const byte = bytes[i + k];
      if (byte === undefined || byte < (k === 1 ? low : 0x80) || byte > (k === 1 ? high : 0xbf)) return i;
    }
    i += following + 1;
  }
  return -1;
}

/** The line (from 1) that holds a byte offset. */
export function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/**
 * What is wrong with the shape of a parsed document, if anything: a value nested deeper than `limit`
 * levels, or one that holds itself (a YAML alias inside its own anchor: validating it would never end).
 * The walk never goes deeper than `limit`, so it cannot run out of stack itself.
 */
export function nestingProblem(value: unknown, limit = MAX_NESTING_DEPTH): { field: string; reason: string } | null {
  const inside = new Set<object>();
  const visit = (item: unknown, path: string, depth: number): { field: string; reason: string } | null => {
    if (item === null || typeof item !== 'object') return null;
    if (inside.has(item)) return { field: '(document)', reason: 'contains itself (a YAML alias inside its own anchor)' };
    if (depth > limit) return { field: path, reason: `nested more than ${limit} levels deep (lists and mappings inside each other)` };
    inside.add(item);
    for (const [key, child] of Object.entries(item)) {
      const problem = visit(child, path ? `${path}.${key}` : key, depth + 1);
      if (problem) return problem;
    }
    inside.delete(item);
    return null;
  };
  return visit(value, '', 1);
}

/**
 * The first key given twice in one object of a JSON text that parses (JSON.parse keeps the last value
 * without a word), with the line it is on; null when there is none. One pass over the text: a stack of
 * the keys seen in each open object.
 */
export function repeatedKey(json: string): { key: string; line: number } | null {
  const objects: Array<Set<string> | null> = [];
  let line = 1;
  let expectKey = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '\n') line++;
    else if (c === '{') {
      objects.push(new Set());
      expectKey = true;
    } else if (c === '[') objects.push(null);
    else if (c === '}' || c === ']') objects.pop();
    else if (c === ',') expectKey = objects[objects.length - 1] !== null;
    else if (c === '"') {
      let end = i + 1;
      while (json[end] !== '"') end += json[end] === '\\' ? 2 : 1;
      if (expectKey) {
        const key = JSON.parse(json.slice(i, end + 1)) as string;
        const seen = objects[objects.length - 1]!;
        if (seen.has(key)) return { key, line };
        seen.add(key);
        expectKey = false;
      }
      i = end;
    }
  }
  return null;
}
