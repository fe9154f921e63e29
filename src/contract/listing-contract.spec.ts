import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { z } from 'zod';
import { ErrorEntryDocumentDto } from '../error-reference/write/error-entry.document';
import { nestedTypeOf } from './validation';
import { DERIVED_SOURCE_FIELDS } from './listing-facts';
import { LISTING_FIELDS, ListingDocumentDto } from '../listings/write/listing.document';
import {
  DERIVED_LISTING_FIELDS,
  ERROR_ENTRY_VIEW_FIELDS,
  LISTING_VIEW_FIELDS,
  RESOLVED_LISTING_FIELDS,
  UNPUBLISHED_ERROR_ENTRY_FIELDS,
  UNPUBLISHED_LISTING_FIELDS,
} from './listing-views';

/**
 * The content files editors write are checked by class-validator DTOs; what the API publishes is the zod
 * contract. These tests hold the two to each other field by field, so a field added to one and not the
 * other, or given another type, fails here.
 */

/** A field's type and bounds as the DTO's validators state them. */
interface FieldType {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  items?: FieldType['type'];
  values?: unknown[];
  nullable: boolean;
  /** Lengths of a string (of each item, for a list of strings), sizes of a list, limits of a number. */
  bounds?: Bounds;
}

interface Bounds {
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
}

/** What class-validator's length, size and limit rules say, as JSON Schema words (undefined: none). */
function dtoBounds(own: ValidationMetadata[], each: ValidationMetadata[]): Bounds | undefined {
  const bounds: Bounds = {};
  const constraint = (list: ValidationMetadata[], name: string, at = 0) => list.find((m) => m.name === name)?.constraints[at] as number | undefined;
  const length = [...own, ...each].find((m) => m.name === 'isLength');
  if (length) Object.assign(bounds, { minLength: length.constraints[0], ...(length.constraints[1] !== undefined ? { maxLength: length.constraints[1] } : {}) });
  const sizes = { minItems: constraint(own, 'arrayMinSize'), maxItems: constraint(own, 'arrayMaxSize'), minimum: constraint(own, 'min'), maximum: constraint(own, 'max') };
  for (const [word, value] of Object.entries(sizes)) if (value !== undefined) bounds[word as keyof Bounds] = value;
  return saying(bounds);
}

/** The bounds that say something: a list or a string of at least 0 is any list or string. */
function saying(bounds: Bounds): Bounds | undefined {
  if (bounds.minItems === 0) delete bounds.minItems;
  if (bounds.minLength === 0) delete bounds.minLength;
  return Object.keys(bounds).length > 0 ? bounds : undefined;
}

const STRING_RULES = new Set(['isString', 'isSlug', 'isHttpsUrl', 'isIsoDate', 'isTag', 'matches', 'isLength', 'hasHan', 'isFact', 'isRegionCode', 'isCurrencyCode']);

function dtoFields(dto: new () => object): Map<string, FieldType> {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const fields = new Map<string, FieldType>();
  const names = [...new Set(metadata.map((m) => m.propertyName))];
  for (const property of names) {
    const rules = metadata.filter((m) => m.propertyName === property);
    const own = rules.filter((m) => !m.each);
    const each = rules.filter((m) => m.each);
    const has = (list: typeof rules, name: string) => list.some((m) => m.name === name);
    const scalar = (list: typeof rules): FieldType['type'] | undefined =>
      has(list, 'isBoolean') ? 'boolean' : has(list, 'isInt') ? 'integer' : has(list, 'isNumber') ? 'number' : list.some((m) => STRING_RULES.has(m.name ?? '') || m.name === 'isIn') ? 'string' : undefined;
    const nullable = rules.some((m) => m.type === 'conditionalValidation');
    const bounds = dtoBounds(own, each);
    if (has(own, 'isArray')) {
      const nested = rules.some((m) => m.type === 'nestedValidation');
      fields.set(property, { type: 'array', items: nested ? 'object' : scalar(each), values: each.find((m) => m.name === 'isIn')?.constraints[0], nullable, bounds });
    } else {
      fields.set(property, { type: scalar(own) ?? 'object', values: own.find((m) => m.name === 'isIn')?.constraints[0], nullable, bounds });
    }
  }
  return fields;
}

/** The same description of a published field, read from its zod schema's JSON Schema. */
function viewField(schema: z.ZodType): FieldType {
  type Json = Bounds & { type: string; nullable?: boolean; enum?: unknown[]; items?: Json };
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0' }) as Json;
  const bounds: Bounds = {};
  const words = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minimum', 'maximum'] as const;
  for (const word of words) {
    const value = json[word] ?? (word.endsWith('Length') ? json.items?.[word] : undefined);
    // zod states an integer's safe range; the DTOs leave it unsaid.
    if (value !== undefined && Math.abs(value) !== Number.MAX_SAFE_INTEGER) bounds[word] = value;
  }
  return {
    type: json.type as FieldType['type'],
    items: json.items?.type as FieldType['type'] | undefined,
    values: json.enum ?? json.items?.enum,
    nullable: json.nullable === true,
    bounds: saying(bounds),
  };
}

describe('a listing file and the listing views', () => {
  const dto = dtoFields(ListingDocumentDto);

  it('the DTO and the canonical field order name the same fields', () => {
    expect([...dto.keys()].sort()).toEqual([...LISTING_FIELDS].sort());
  });

  it.each([...dtoFields(ListingDocumentDto).keys()])('%s: published with the same type, or declared unpublished', (field) => {
    const inDto = dto.get(field)!;
    if ((UNPUBLISHED_LISTING_FIELDS as readonly string[]).includes(field)) {
      expect(LISTING_VIEW_FIELDS).not.toHaveProperty(field);
      return;
    }
    const view = LISTING_VIEW_FIELDS[field as keyof typeof LISTING_VIEW_FIELDS];
    expect(view).toBeDefined();
    const published = viewField(view);
    if ((RESOLVED_LISTING_FIELDS as readonly string[]).includes(field)) {
      // The detail shows the listings a field names (similarApis) as objects, from LISTING_VIEW_FIELDS' own list.
      expect(inDto.type).toBe('array');
      return;
    }
    expect({ field, ...published }).toEqual({ field, ...inDto, values: inDto.values ? [...inDto.values] : undefined });
  });

  it('every published field comes from the file, or is declared derived', () => {
    const fromFile = new Set(dto.keys());
    for (const field of Object.keys(LISTING_VIEW_FIELDS)) {
      if (!fromFile.has(field)) expect(DERIVED_LISTING_FIELDS).toContain(field);
    }
    for (const field of DERIVED_LISTING_FIELDS) expect(fromFile.has(field)).toBe(false);
  });
});

/** A zod schema without its nullable or array wrapping: the object inside, if any. */
function objectInside(schema: z.ZodType): z.ZodObject | undefined {
  let inner: z.ZodType = schema;
  for (;;) {
    if (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodArray) inner = inner.element as z.ZodType;
    else break;
  }
  return inner instanceof z.ZodObject ? inner : undefined;
}

/** Every field of a nested DTO against the object its view publishes, at every depth. */
function nestedDifferences(dto: new () => object, view: z.ZodObject, path: string): string[] {
  const differences: string[] = [];
  const fields = dtoFields(dto);
  const shape = view.shape as Record<string, z.ZodType>;
  for (const [field, inDto] of fields) {
    const at = `${path}.${field}`;
    if (!shape[field]) {
      differences.push(`${at}: in the file, not in the view`);
      continue;
    }
    const published = viewField(shape[field]);
    const expected = { ...inDto, values: inDto.values ? [...inDto.values] : undefined };
    if (JSON.stringify(published) !== JSON.stringify(expected)) differences.push(`${at}: view ${JSON.stringify(published)}, file ${JSON.stringify(expected)}`);
    const type = nestedTypeOf(dto, field);
    const inner = objectInside(shape[field]);
    if (type && inner) differences.push(...nestedDifferences(type, inner, at));
    else if (type || inner) differences.push(`${at}: nested in ${type ? 'the file' : 'the view'} only`);
  }
  for (const field of Object.keys(shape)) {
    if (!fields.has(field) && !(DERIVED_SOURCE_FIELDS as readonly string[]).includes(field)) differences.push(`${path}.${field}: in the view, not in the file`);
  }
  return differences;
}

describe('the facts as data, nested fields included', () => {
  it.each(['lifecycle', 'models', 'prices', 'rateLimits', 'sources', 'codeExamples', 'provider', 'mcpServers', 'markets'])('%s', (field) => {
    const type = nestedTypeOf(ListingDocumentDto, field)!;
    const view = objectInside(LISTING_VIEW_FIELDS[field as keyof typeof LISTING_VIEW_FIELDS])!;
    expect(type).toBeDefined();
    expect(view).toBeDefined();
    const differences = nestedDifferences(type, view, field).filter((d) => !(field === 'codeExamples' && d === 'codeExamples.title: in the view, not in the file'));
    expect(differences).toEqual([]);
  });
});

describe('an error-entry file and the error reference view', () => {
  const dto = dtoFields(ErrorEntryDocumentDto);
  const derived = new Set(['id', 'providerName', 'rateLimitsUrl']);

  it.each([...dtoFields(ErrorEntryDocumentDto).keys()])('%s: published with the same type, or declared unpublished', (field) => {
    if ((UNPUBLISHED_ERROR_ENTRY_FIELDS as readonly string[]).includes(field)) {
      expect(ERROR_ENTRY_VIEW_FIELDS).not.toHaveProperty(field);
      return;
    }
    const view = ERROR_ENTRY_VIEW_FIELDS[field as keyof typeof ERROR_ENTRY_VIEW_FIELDS];
    expect(view).toBeDefined();
    const inDto = dto.get(field)!;
    // An optional field of the file is null in the view when absent.
    expect({ field, ...viewField(view) }).toEqual({ field, ...inDto });
  });

  it('every published field comes from the file, or is the id or provider name worked out from it', () => {
    for (const field of Object.keys(ERROR_ENTRY_VIEW_FIELDS)) expect(dto.has(field) || derived.has(field)).toBe(true);
  });
});
