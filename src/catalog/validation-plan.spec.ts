import { readdirSync, readFileSync } from 'node:fs';
import { ClassConstructor } from 'class-transformer';
import { IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Transform, Type } from 'class-transformer';
import { parse } from 'yaml';
import { ErrorEntryDocumentDto } from '../error-reference/error-entry.document';
import { ListingDocumentDto } from '../listings/listing.document';
import { validatePlain, validateWithReasons } from './validation';
import { ValidationPlan } from './validation-plan';

const read = (folder: string) =>
  readdirSync(folder)
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => parse(readFileSync(`${folder}/${file}`, 'utf8')) as Record<string, unknown>);
const listings = read('fixtures/listings');
const errorEntries = read('fixtures/errors');

/** A small deterministic generator, so a failure names a case that can be run again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Values that sit on either side of the rules of one field or another. */
const ODD_VALUES: unknown[] = [
  null, 0, -1, 1, 100, 101, 50.5, true, false, '', ' ', 'x', 'ab', 'N/A', 'tbd', 'a'.repeat(121), 'a'.repeat(301), 'b'.repeat(401),
  'generous', 'up to 60 requests', '中文', 'Name 中文', 'search', 'compare', 'OpenAI', 'open--ai', 'ok-slug', 'llm', 'LLM',
  'language model', 'https://api.example.com/v1', 'http://api.example.com', 'https://localhost', 'https://u:p@example.com', '/docs',
  '2026-02-30', '2026-02-28', '20/11/2026', 'online', 'gone', 'bash', 'cobol', 'example.com', 'Example.com', [], ['x'], [1], [null],
  ['a', 'a'], ['https://a.example.com', 'https://a.example.com'], {}, { label: 'x' }, [{}], [[]],
];

function pick<T>(next: () => number, items: T[]): T {
  return items[Math.floor(next() * items.length)];
}

const CHANGE = Symbol('change');

/** One change of a valid document: a field removed, replaced, added, or one item of a list changed; the change is described under CHANGE. */
function mutate(document: Record<string, unknown>, next: () => number): Record<string, unknown> {
  const copy = structuredClone(document);
  const field = pick(next, Object.keys(copy));
  const kind = Math.floor(next() * 6);
  let change = `${kind} ${field}`;
  if (kind === 0) delete copy[field];
  else if (kind === 1) copy[field] = structuredClone(pick(next, ODD_VALUES));
  else if (kind === 2) copy[(change = `2 ${pick(next, ['colour', 'Slug', '__proto__', 'constructor'])}`).slice(2)] = 'x';
  else {
    const lists = Object.entries(copy).filter(([, value]) => Array.isArray(value)) as Array<[string, unknown[]]>;
    const [name, list] = lists.length > 0 ? pick(next, lists) : ['', []];
    const index = Math.floor(next() * list.length);
    const item = list[index];
    change = `${kind} ${name}[${index}]`;
    if (list.length === 0) change = 'none';
    else if (kind === 3) list.push(structuredClone(item)); // a duplicate, or one item too many
    else if (kind === 4) list[index] = structuredClone(pick(next, ODD_VALUES));
    else if (item && typeof item === 'object') {
      // an item of a nested list (a code example): one of its fields removed, changed or added
      const example = item as Record<string, unknown>;
      const key = pick(next, [...Object.keys(example), 'extra']);
      change += `.${key}`;
      if (next() < 0.3) delete example[key];
      else example[key] = structuredClone(pick(next, ODD_VALUES));
    } else list.splice(index, 1);
  }
  return Object.defineProperty(copy, CHANGE, { value: `${change} -> ${JSON.stringify(copy)}`, enumerable: false });
}

/** How the plan, and what validatePlain answers, differ from class-validator on one document (nothing when they agree). */
function differences(dto: ClassConstructor<object>, document: Record<string, unknown>): string[] {
  const reference = validateWithReasons(dto, document);
  const answer = validatePlain(dto, document);
  const change = (document as Record<symbol, string>)[CHANGE];
  const found: string[] = [];
  if (ValidationPlan.of(dto)!.accepts(document) !== (reference.problems.length === 0)) found.push(`verdict: ${change}`);
  // What callers get is class-validator's answer either way: the same problems, or the same fields.
  if (JSON.stringify(answer.problems) !== JSON.stringify(reference.problems)) found.push(`problems: ${change}`);
  if (JSON.stringify({ ...answer.value }) !== JSON.stringify({ ...reference.value })) found.push(`value: ${change}`);
  return found;
}

describe('ValidationPlan', () => {
  it('exists for the listing and error-entry documents and accepts every fixture', () => {
    for (const [dto, documents] of [[ListingDocumentDto, listings], [ErrorEntryDocumentDto, errorEntries]] as const) {
      const plan = ValidationPlan.of(dto);
      expect(plan).toBeDefined();
      expect(documents.length).toBeGreaterThan(10);
      for (const document of documents) expect(plan!.accepts(document)).toBe(true);
    }
  });

  it('gives class-validator\'s verdict on every fixture changed in 3,700 ways', () => {
    const next = random(20261123);
    const found: string[] = [];
    let refused = 0;
    for (let i = 0; i < 3_000; i++) {
      const document = mutate(pick(next, listings), next);
      found.push(...differences(ListingDocumentDto, document));
      if (!ValidationPlan.of(ListingDocumentDto)!.accepts(document)) refused++;
    }
    for (let i = 0; i < 700; i++) found.push(...differences(ErrorEntryDocumentDto, mutate(pick(next, errorEntries), next)));
    expect(found).toEqual([]);
    // Both verdicts are exercised: most changes break a rule, and some leave the document valid.
    expect(refused).toBeGreaterThan(1_500);
    expect(refused).toBeLessThan(2_950);
  });

  it('leaves to class-validator what it does not follow, and never accepts it', () => {
    class Item {
      @IsString() name: string;
    }
    class WithNested {
      @IsArray() @ValidateNested({ each: true }) @Type(() => Item) items: Item[];
      @IsOptional() @IsString() note?: string;
    }
    class Untyped {
      @ValidateNested() item: object;
    }
    class Transformed {
      @IsString() @Transform(({ value }) => String(value).trim()) name: string;
    }
    class Converted {
      @IsString() @Type(() => Date) day: string;
    }
    class WithSubtypes {
      @ValidateNested({ each: true })
      @Type(() => Item, { discriminator: { property: 'kind', subTypes: [{ name: 'item', value: Item }] } })
      items: Item[];
    }
    class WithDefault {
      @IsOptional() @IsString() note?: string = 'none';
    }
    const plan = ValidationPlan.of(WithNested)!;
    expect(plan.accepts({ items: [{ name: 'a' }] })).toBe(true);
    expect(plan.accepts({ items: [{ name: 'a' }], note: null })).toBe(true);
    expect(plan.accepts({ items: [{ name: 1 }] })).toBe(false);
    expect(plan.accepts({ items: [{ name: 'a', extra: 1 }] })).toBe(false);
    expect(plan.accepts({ items: [null] })).toBe(false);
    expect(plan.accepts({ items: [[{ name: 'a' }]] })).toBe(false);
    expect(plan.accepts({ items: [new Map([['name', 'a']])] })).toBe(false);
    expect(plan.accepts({ items: new Set([{ name: 'a' }]) })).toBe(false);
    // A nested property without @Type: class-validator refuses its plain objects, so there is no plan.
    expect(ValidationPlan.of(Untyped)).toBeUndefined();
    expect(validatePlain(Untyped, { item: {} }).problems).not.toEqual([]);
    // A DTO whose values class-transformer changes is validated as it changes them, so there is no plan.
    expect(ValidationPlan.of(Transformed)).toBeUndefined();
    expect(validatePlain(Transformed, { name: ' a ' }).value).toEqual({ name: 'a' });
    for (const dto of [Converted, WithSubtypes, WithDefault]) expect(ValidationPlan.of(dto)).toBeUndefined();
    // Objects no parser makes: class-transformer would not copy them as they are.
    const hidden = Object.defineProperty({ items: [{ name: 'a' }] }, 'note', { value: 'x', enumerable: false });
    expect(plan.accepts(hidden)).toBe(false);
    expect(plan.accepts(Object.create(Object.assign(Object.create(null), { items: [{ name: 'a' }] })))).toBe(false);
    class Detached {
      items = [{ name: 'a' }];
    }
    Object.setPrototypeOf(Detached.prototype, null);
    expect(plan.accepts(new Detached())).toBe(false);
    expect(plan.accepts({ items: [{ name: new String('a') }] })).toBe(false);
    expect(plan.accepts({ items: [{ name: 'a' }], note: new Date() })).toBe(false);
    expect(plan.accepts(Object.assign(Object.create(null), { items: [{ name: 'a' }] }))).toBe(true);
  });
});
