import { z } from 'zod';
import {
  categoriesResponseSchema,
  compareResponseSchema,
  errorsResponseSchema,
  listResponseSchema,
  modelCompareResponseSchema,
  modelDetailResponseSchema,
  modelListResponseSchema,
  searchResponseSchema,
  toolDetailResponseSchema,
} from '../contract/responses';

/**
 * The tools' output schemas: the published response schemas (src/contract/), whose bodies the tools return
 * as they are in `structuredContent`. They are opened: every object accepts keys beyond those it names, so
 * a client that kept an older tools/list does not reject an answer that gained a field. The SDK checks every
 * result against them before sending it.
 */
export function opened<T extends z.ZodType>(schema: T): T {
  const description = z.globalRegistry.get(schema)?.description;
  const rebuilt = rebuild(schema);
  return (description && rebuilt !== schema ? rebuilt.describe(description) : rebuilt) as T;
}

function rebuild(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    return z.looseObject(Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, field]) => [key, opened(field)])));
  }
  if (schema instanceof z.ZodArray) return z.array(opened(schema.element as z.ZodType));
  if (schema instanceof z.ZodNullable) return opened(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodOptional) return opened(schema.unwrap() as z.ZodType).optional();
  return schema;
}

export const searchOutputSchema = opened(searchResponseSchema);
export const listOutputSchema = opened(listResponseSchema);
export const detailOutputSchema = opened(toolDetailResponseSchema);
export const compareOutputSchema = opened(compareResponseSchema);
export const categoriesOutputSchema = opened(categoriesResponseSchema);
export const errorsOutputSchema = opened(errorsResponseSchema);
export const modelListOutputSchema = opened(modelListResponseSchema);
export const modelDetailOutputSchema = opened(modelDetailResponseSchema);
export const modelCompareOutputSchema = opened(modelCompareResponseSchema);
