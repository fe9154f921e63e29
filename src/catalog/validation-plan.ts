import 'reflect-metadata';
import { ClassConstructor, plainToInstance, TransformationType } from 'class-transformer';
import type { MetadataStorage as TransformerMetadata } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage, MetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];
type Check = (value: unknown, args: ValidationArguments) => unknown;

interface PropertyPlan {
  name: string;
  /** ValidateIf / IsOptional: when one says no, the property is not checked at all. */
  conditions: Array<(object: object, value: unknown) => boolean>;
  constraints: Array<{ metadata: ValidationMetadata; check: Check }>;
  /** ValidateNested: the plan of the class class-transformer makes of the nested plain objects. */
  nested?: ValidationPlan;
}

/**
 * A DTO's class-validator rules, looked up once and run straight on a plain document.
 *
 * `plainToInstance` + `validateSync` look the class's metadata up, filter and group it, and build an error
 * record for every property on every call: for a listing that was 55% of reading a file, half of a large
 * import's reading phase. A plan runs the very same constraint functions, in the same order, on the same
 * values (with the plain document where class-validator passes the instance), but only answers "valid" or
 * "not sure". On "not sure" `validatePlain` asks class-validator, which gives the reasons. So the DTO stays
 * the one definition of what is valid and of every message, and a plan is only ever stricter than
 * class-validator, never looser: it refuses what it cannot follow (unknown fields, fields that are not
 * enumerable, objects that are neither plain mappings nor lists) and leaves it to class-validator.
 *
 * Only DTOs whose plain form class-transformer copies as it is get a plan (see copiedAsItIs), with
 * `@Type` only under `@ValidateNested`: the listing and error-entry documents.
 */
export class ValidationPlan {
  private readonly properties: PropertyPlan[];
  private readonly known: Set<string>;

  private constructor(private readonly dto: ClassConstructor<object>, properties: PropertyPlan[]) {
    this.properties = properties;
    this.known = new Set(properties.map((p) => p.name));
  }

  /** The plan of a DTO, or undefined when it uses a rule a plan does not follow (it is then always left to class-validator). */
  static of(dto: ClassConstructor<object>): ValidationPlan | undefined {
    const cached = plans.get(dto);
    if (cached !== undefined || plans.has(dto)) return cached;
    plans.set(dto, undefined); // a class that nests itself gets no plan rather than an endless build
    const plan = ValidationPlan.build(dto);
    plans.set(dto, plan);
    return plan;
  }

  /** True when class-validator would find no problem with `plain` validated as the DTO (whitelist, unknown fields forbidden). */
  accepts(plain: unknown): boolean {
    if (!isPlainObject(plain)) return false;
    // class-transformer copies what Object.keys lists; class-validator's whitelist looks at the same keys.
    for (const key of Object.keys(plain)) if (!this.known.has(key)) return false;
    for (const property of this.properties) {
      if (Object.hasOwn(plain, property.name) && !propertyIsEnumerable.call(plain, property.name)) return false;
      const value = (plain as Record<string, unknown>)[property.name];
      if (isOtherObject(value)) return false;
      let applies = true;
      for (const condition of property.conditions) applies = condition(plain, value) && applies;
      if (!applies) continue;
      for (const { metadata, check } of property.constraints) {
        if (metadata.validateIf && !metadata.validateIf(plain, value)) continue;
        const args: ValidationArguments = {
          targetName: this.dto.name,
          property: property.name,
          object: plain,
          value,
          constraints: metadata.constraints,
        };
        if (metadata.each && Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) if (isOtherObject(value[i]) || !check(value[i], args)) return false;
        } else if (!check(value, args)) return false;
      }
      if (property.nested && value !== undefined) {
        // class-validator checks each item of a list, and a lone object, as the nested class.
        const items = Array.isArray(value) ? value : [value];
        for (let i = 0; i < items.length; i++) if (!property.nested.accepts(items[i])) return false;
      }
    }
    return true;
  }

  private static build(dto: ClassConstructor<object>): ValidationPlan | undefined {
    const storage = getMetadataStorage();
    // The same call, with the same options, as validateSync makes for an instance of the DTO.
    const metadatas = storage.getTargetValidationMetadatas(dto, undefined as unknown as string, false, false, undefined);
    const byName = new Map<string, PropertyPlan>();
    for (const metadata of metadatas) {
      if (metadata.context || metadata.always || metadata.groups?.length) return undefined;
      let property = byName.get(metadata.propertyName);
      if (!property) byName.set(metadata.propertyName, (property = { name: metadata.propertyName, conditions: [], constraints: [] }));
      switch (metadata.type) {
        case ValidationTypes.CONDITIONAL_VALIDATION:
          property.conditions.push(metadata.constraints[0] as (object: object, value: unknown) => boolean);
          break;
        case ValidationTypes.CUSTOM_VALIDATION:
          for (const constraint of storage.getTargetValidatorConstraints(metadata.constraintCls)) {
            if (constraint.async) return undefined;
            const instance = constraint.instance;
            property.constraints.push({ metadata, check: (value, args) => instance.validate(value, args) });
          }
          break;
        case ValidationTypes.NESTED_VALIDATION: {
          if (property.nested) return undefined;
          const nestedClass = nestedClassOf(dto, metadata.propertyName);
          const nested = nestedClass && ValidationPlan.of(nestedClass);
          if (!nested) return undefined;
          property.nested = nested;
          break;
        }
        default:
          return undefined; // IsDefined, Allow, promise validation: not followed
      }
    }
    // class-validator refuses every instance of a class without rules ("unknown value").
    if (byName.size === 0 || !copiedAsItIs(dto, [...byName.values()])) return undefined;
    return new ValidationPlan(dto, [...byName.values()]);
  }
}

const plans = new Map<ClassConstructor<object>, ValidationPlan | undefined>();

/**
 * Whether class-transformer gives the instance each property's plain value as it is: a plan reads the
 * plain document, so a DTO with `@Transform`, `@Expose` or `@Exclude` gets none.
 */
function copiedAsItIs(dto: ClassConstructor<object>, properties: PropertyPlan[]): boolean {
  const storage = transformerMetadata();
  if (storage.getExposedMetadatas(dto).length > 0 || storage.getExcludedMetadatas(dto).length > 0) return false;
  // A default set by the constructor stays on the instance where the document has no value.
  if (Object.values(new dto()).some((value) => value !== undefined)) return false;
  return properties.every((p) => {
    const type = storage.findTypeMetadata(dto, p.name);
    // @Type converts what it meets; a plan follows it only for nested objects, and without subtypes.
    if (type && (!p.nested || type.options?.discriminator)) return false;
    return storage.findTransformMetadatas(dto, p.name, TransformationType.PLAIN_TO_CLASS).length === 0;
  });
}

/** class-transformer's record of its decorators: its package exports no accessor, so it is required by path. */
function transformerMetadata(): TransformerMetadata {
  return (require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerMetadata }).defaultMetadataStorage;
}

/** The class class-transformer gives the plain objects of a property, found by asking it (its `@Type`). */
function nestedClassOf(dto: ClassConstructor<object>, property: string): ClassConstructor<object> | undefined {
  const instance = plainToInstance(dto, { [property]: [{}] }, { enableImplicitConversion: false }) as Record<string, unknown>;
  const item = (instance[property] as unknown[] | undefined)?.[0];
  const nestedClass = (item as object | undefined)?.constructor as ClassConstructor<object> | undefined;
  return nestedClass && nestedClass !== Object ? nestedClass : undefined;
}

/** A mapping as parsers make it: its prototype is `Object.prototype` (of any realm: tests run in another) or none. */
function isPlainObject(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as { constructor?: unknown } | null;
  if (prototype === null) return true;
  return Object.getPrototypeOf(prototype) === null && typeof prototype.constructor === 'function' && prototype.constructor.name === 'Object';
}

/** An object class-transformer may convert rather than copy: neither a plain mapping nor a list (a Date, a Set, a boxed value). */
function isOtherObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !isPlainObject(value);
}

const propertyIsEnumerable = Object.prototype.propertyIsEnumerable;
