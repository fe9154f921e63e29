import { z } from 'zod';
import { FilterKind } from '../contract/listing-filters';
import { LIVE_FILTER_VALUES } from '../liveness/liveness.schema';
import { LIFECYCLE_STATUSES, RATE_UNITS } from '../contract/vocabulary';
import { AUTH_TYPES } from '../contract/vocabulary';
import { PUBLISHED_SCHEMAS } from '../contract/responses';

type JsonSchema = Record<string, unknown>;
const TARGET = 'openapi-3.0';

/**
 * The OpenAPI document's `components.schemas`, derived from the published zod schemas (src/contract/) with
 * zod's own JSON Schema converter for OpenAPI 3.0: each named schema is a component, and where one holds
 * another it refers to it by `$ref`. `schemas` is a parameter so a test can derive the document from a
 * changed contract.
 */
export function componentSchemas(schemas: Record<string, z.ZodType> = PUBLISHED_SCHEMAS): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, { target: TARGET, uri: (id) => `#/components/schemas/${id}` }).schemas as Record<string, JsonSchema>;
  return Object.fromEntries(Object.entries(converted).map(([id, schema]) => [id, tidy(schema)]));
}

/** One schema outside the components (a parameter's), in the same form. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return tidy(z.toJSONSchema(schema, { target: TARGET }) as JsonSchema);
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/**
 * What OpenAPI 3.0 readers expect of the converter's output: no `$id` (not a 3.0 keyword), no bounds that
 * only say "a safe integer", and `null` among the values of a nullable enum (3.0.3 asks for it, and
 * validators refuse null otherwise).
 */
function tidy(schema: unknown): JsonSchema {
  if (Array.isArray(schema)) return schema.map(tidy) as unknown as JsonSchema;
  if (schema === null || typeof schema !== 'object') return schema as JsonSchema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$id' || key === '$schema') continue;
    if ((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(value as number)) continue;
    out[key] = key === 'enum' || key === 'required' ? value : tidy(value);
  }
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

