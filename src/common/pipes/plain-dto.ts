import { createRequire } from 'node:module';
import { TransformationType } from 'class-transformer';
import type { MetadataStorage as TransformerMetadata } from 'class-transformer/types/MetadataStorage.js';
import {
  getMetadataStorage,
  ValidationTypes,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';

/** Accepts a body only where ValidationPipe would, and builds the same instance; undefined means "ask the library". */
export type PlainDtoCheck = (body: object) => object | undefined;

type DtoClass = new () => object;

interface PropertyCheck {
  property: string;
  constraints: { validator: ValidatorConstraintInterface; args: unknown[] }[];
}

/*
 * class-transformer keeps its decorators' metadata in a singleton it does not export from its
 * index; ValidationPipe's plainToInstance reads the same one. Without it no check is built.
 */
function transformerMetadata(): TransformerMetadata | undefined {
  try {
    const storage = (
      createRequire(import.meta.url)('class-transformer/cjs/storage.js') as {
        defaultMetadataStorage?: TransformerMetadata;
      }
    ).defaultMetadataStorage;
    return typeof storage?.findTypeMetadata === 'function' ? storage : undefined;
  } catch {
    return undefined;
  }
}

const CHECKED_TYPES = new Set<string>([
  ValidationTypes.IS_DEFINED,
  ValidationTypes.CUSTOM_VALIDATION,
]);

/** What class-validator checks on `metatype` (as ValidationPipe asks it: no groups), when all of it can be run directly. */
function propertyChecks(metatype: DtoClass): PropertyCheck[] | undefined {
  const storage = getMetadataStorage();
  const byProperty = new Map<string, PropertyCheck>();
  for (const metadata of storage.getTargetValidationMetadatas(metatype, '', false, false)) {
    if (!CHECKED_TYPES.has(metadata.type) || metadata.each) return undefined;
    const check = byProperty.get(metadata.propertyName) ?? {
      property: metadata.propertyName,
      constraints: [],
    };
    byProperty.set(metadata.propertyName, check);
    const constraints = storage.getTargetValidatorConstraints(metadata.constraintCls);
    if (constraints.length === 0) return undefined;
    for (const constraint of constraints) {
      if (constraint.async) return undefined;
      check.constraints.push({ validator: constraint.instance, args: metadata.constraints });
    }
  }
  return byProperty.size > 0 ? [...byProperty.values()] : undefined;
}

/** Whether plainToInstance copies these properties' primitive values onto a new instance, and does nothing else. */
function copiedAsIs(
  metatype: DtoClass,
  properties: string[],
  transformer: TransformerMetadata,
): boolean {
  // Class-level @Expose/@Exclude are kept under an undefined property name, and the two
  // getters below list property-level ones only.
  const classLevel = undefined as unknown as string;
  if (
    transformer.findExposeMetadata(metatype, classLevel) ||
    transformer.findExcludeMetadata(metatype, classLevel)
  )
    return false;
  if (
    transformer.getExposedMetadatas(metatype).length > 0 ||
    transformer.getExcludedMetadatas(metatype).length > 0
  )
    return false;
  const fields = Object.keys(new metatype());
  return (
    fields.every((field) => properties.includes(field)) &&
    properties.every(
      (property) =>
        transformer.findTypeMetadata(metatype, property) === undefined &&
        transformer.findTransformMetadatas(metatype, property, TransformationType.PLAIN_TO_CLASS)
          .length === 0 &&
        !(property in metatype.prototype),
    )
  );
}

/**
 * A direct check for the common case of a request DTO: its properties carry only synchronous
 * class-validator constraints and no class-transformer decorators, and the body holds nothing
 * but those properties with primitive values. Then the instance plainToInstance would build is
 * a plain copy, and validating it is calling each constraint. That is a fraction of the
 * library's generic walk (transformer and executor cost about 8% of a PATCH's instructions;
 * README "Performance"). A body that fails any constraint, or is not that simple, returns
 * undefined: ValidationPipe then decides, and words the error, as it always has.
 */
export function plainDtoCheck(metatype: DtoClass): PlainDtoCheck | undefined {
  const checks = propertyChecks(metatype);
  const transformer = transformerMetadata();
  if (!checks || !transformer) return undefined;
  const properties = checks.map((check) => check.property);
  if (!copiedAsIs(metatype, properties, transformer)) return undefined;
  const known = new Set(properties);
  const targetName = metatype.name;

  return (body) => {
    for (const key of Object.keys(body)) {
      const value = (body as Record<string, unknown>)[key];
      if (!known.has(key) || (typeof value === 'object' && value !== null)) return undefined;
    }
    const object = Object.assign(new metatype(), body) as Record<string, unknown>;
    for (const { property, constraints } of checks) {
      const value = object[property];
      for (const { validator, args } of constraints) {
        const validation: ValidationArguments = {
          targetName,
          property,
          object,
          value,
          constraints: args,
        };
        if (validator.validate(value, validation) !== true) return undefined;
      }
    }
    return object;
  };
}
