import 'reflect-metadata';
import { ClassConstructor, plainToInstance, Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, getMetadataStorage, IsArray, IsObject, IsString, Length, registerDecorator, ValidateNested, ValidationError, ValidationOptions, validateSync } from 'class-validator';
import { DOMAIN_NAME_MESSAGE, isDomainName } from './vocabulary';

/** One thing wrong with an input document: the field (dotted path) and why. */
export interface FieldProblem {
  field: string;
  reason: string;
}

/**
 * The fields a DTO declares, in the order of its class: a document's canonical field order (stored events,
 * digests) is its DTO's, so a field is added in one place.
 */
export function declaredFields<T extends object>(dto: ClassConstructor<T>): Array<keyof T & string> {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))] as Array<keyof T & string>;
}

/** The DTO of each nested field, by DTO (recorded by Nested), for canonical(). */
const NESTED_TYPES = new Map<object, Map<string, () => ClassConstructor<object>>>();

/**
 * A field holding a mapping (or, with `each`, a list of mappings) validated by another DTO: checked as such,
 * and known to canonical().
 */
export function Nested(type: () => ClassConstructor<object>, each = false): PropertyDecorator {
  return (target, key) => {
    IsObject({ each, message: each ? 'each item must be a mapping' : 'must be a mapping' })(target, key);
    ValidateNested({ each })(target, key);
    Type(type)(target, key);
    const types = NESTED_TYPES.get(target.constructor) ?? new Map();
    NESTED_TYPES.set(target.constructor, types.set(String(key), type));
  };
}

/** Several property decorators applied as one, in their order (their reasons come in that order). */
export function apply(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((d) => d(target, key));
}

/** A string of `min` to `max` characters (use with apply). */
export const text = (min: number, max: number) => [
  IsString({ message: 'must be a string' }),
  Length(min, max, { message: `must be ${min}-${max} characters` }),
];

/** A list of `min` to `max` items (use with apply). */
export const list = (min: number, max: number) => [
  IsArray({ message: 'must be a list' }),
  ArrayMinSize(min, { message: `must have at least ${min} item(s)` }),
  ArrayMaxSize(max, { message: `must have at most ${max} items` }),
];
/** Each item a string of 1 to `max` characters (use with apply, after list). */
export const textItems = (max: number) => [
  IsString({ each: true, message: 'each item must be a string' }),
  Length(1, max, { each: true, message: `each item must be 1-${max} characters` }),
];

/** The DTO a nested field of a DTO is validated by, if it is one (see Nested). */
export function nestedTypeOf(dto: ClassConstructor<object>, field: string): ClassConstructor<object> | undefined {
  return NESTED_TYPES.get(dto)?.get(field)?.();
}

/**
 * A validated document as plain data in canonical form: the DTO's fields in its order, nested mappings
 * likewise, and a field not given as null. Events carry this form, and its digest identifies the content.
 */
export function canonical<T extends object>(dto: ClassConstructor<T>, value: T): T {
  const out: Record<string, unknown> = {};
  const types = NESTED_TYPES.get(dto);
  for (const field of declaredFields(dto)) {
    const item = (value as Record<string, unknown>)[field];
    const type = types?.get(field);
    if (item === undefined || item === null) out[field] = null;
    else if (type && Array.isArray(item)) out[field] = item.map((each: object) => canonical(type(), each));
    else if (type) out[field] = canonical(type(), item as object);
    else out[field] = Array.isArray(item) ? [...item] : item;
  }
  return out as T;
}

/**
 * Validates a plain object against a class-validator DTO. Unknown fields are refused, so a typo in a
 * field name is an error rather than silently dropped content. `value` holds the valid document's fields
 * under the DTO's type; it is not always an instance of the DTO (callers copy the fields out).
 */
export function validatePlain<T extends object>(dto: ClassConstructor<T>, plain: unknown): { value?: T; problems: FieldProblem[] } {
  if (!plain || typeof plain !== 'object' || Array.isArray(plain)) {
    return { problems: [{ field: '(document)', reason: 'must be a mapping of fields' }] };
  }
  const instance = plainToInstance(dto, plain, { enableImplicitConversion: false });
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, validationError: { target: false } });
  const problems = [...flatten(errors, ''), ...droppedKeys(plain, '')];
  return problems.length > 0 ? { problems } : { value: instance, problems };
}

/**
 * class-transformer skips the keys `__proto__` and `constructor` without a word, so class-validator never
 * sees them and would accept a document that has them: they are unknown fields like any other.
 */
function droppedKeys(value: unknown, prefix: string): FieldProblem[] {
  if (!value || typeof value !== 'object') return [];
  const problems: FieldProblem[] = [];
  for (const [key, item] of Object.entries(value)) {
    const field = prefix ? `${prefix}.${key}` : key;
    if (key === '__proto__' || key === 'constructor') problems.push({ field, reason: 'unknown field' });
    else problems.push(...droppedKeys(item, field));
  }
  return problems;
}

function flatten(errors: ValidationError[], prefix: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const error of errors) {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    for (const message of Object.values(error.constraints ?? {})) {
      problems.push({ field, reason: message.replace(/^property \S+ should not exist$/, 'unknown field') });
    }
    if (error.children?.length) problems.push(...flatten(error.children, field));
  }
  return problems;
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Slugs that name routes of the API, so no listing may take them. */
export const RESERVED_SLUGS = ['search', 'compare', 'categories'];
export const TAG_PATTERN = /^[a-z0-9][a-z0-9+.-]*$/;
const HAN = /\p{Script=Han}/u;

export function isHttpsUrl(value: unknown): boolean {
  if (typeof value !== 'string' || !value.startsWith('https://')) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.includes('.') && !url.username && !url.password;
  } catch {
    return false;
  }
}

export function isIsoDate(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

export function hasHan(value: unknown): boolean {
  return typeof value === 'string' && HAN.test(value);
}

/** A decorator of a rule of our own: a named test and its message (each: applied to every item of a list). */
export function registerRule(name: string, test: (value: unknown) => boolean, message: string, each = false) {
  return rule(name, test, message, each)();
}

function rule(name: string, test: (value: unknown) => boolean, message: string, each = false) {
  return (options?: ValidationOptions) => (object: object, propertyName: string) =>
    registerDecorator({
      name,
      target: object.constructor,
      propertyName,
      options: { message, each, ...options },
      validator: { validate: (value: unknown) => test(value) },
    });
}

export const IsSlug = rule(
  'isSlug',
  (v) => typeof v === 'string' && v.length >= 2 && v.length <= 64 && SLUG_PATTERN.test(v),
  'must be 2-64 lowercase letters, digits and single hyphens',
);
export const IsNotReservedSlug = rule(
  'isNotReservedSlug',
  (v) => !RESERVED_SLUGS.includes(String(v)),
  `is reserved for a route (${RESERVED_SLUGS.join(', ')})`,
);
export const IsDomainName = rule('isDomainName', (v) => typeof v === 'string' && isDomainName(v), DOMAIN_NAME_MESSAGE);
export const IsHttpsUrl = rule('isHttpsUrl', isHttpsUrl, 'must be an absolute https:// URL without a user name or password');
export const IsIsoDate = rule('isIsoDate', isIsoDate, 'must be a date as YYYY-MM-DD');
export const HasHan = rule('hasHan', hasHan, 'must contain Chinese (Han) characters');
export const IsTag = rule('isTag', (v) => typeof v === 'string' && v.length <= 40 && TAG_PATTERN.test(v), 'must be lowercase: a-z, 0-9, +, ., -');

/** Placeholders that stand for a missing fact; an unknown fact is `null` (where allowed), never "N/A". */
const PLACEHOLDER = /^\s*(n\/?a|none|unknown|tbd|-+|\?+)\s*$/i;
export const IsFact = rule('isFact', (v) => typeof v !== 'string' || !PLACEHOLDER.test(v), 'must state the fact (use null where the field allows it), not a placeholder like N/A');
