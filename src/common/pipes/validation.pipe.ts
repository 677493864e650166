import {
  ArgumentMetadata,
  ValidationError,
  ValidationPipe,
  type ValidationPipeOptions,
} from '@nestjs/common';
import { ValidationFailedError } from '../errors/api-error.js';

// An element of a body's array is a line (a batch's `changes`), numbered from 1 as the docs do.
const segment = (property: string) =>
  /^\d+$/.test(property) ? `line ${Number(property) + 1}` : property;

function describe(errors: ValidationError[], parent = '', inArray = false): string[] {
  return errors.flatMap((error) => {
    if (inArray && /^\d+$/.test(error.property)) {
      const line = segment(error.property);
      const own = Object.values(error.constraints ?? {}).map((message) => `${line}: ${message}`);
      return [...own, ...describe(error.children ?? []).map((message) => `${line}: ${message}`)];
    }
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) =>
      message.startsWith(error.property) ? message.replace(error.property, path) : message,
    );
    return [...own, ...describe(error.children ?? [], path, true)];
  });
}

/** A body of a thousand unknown fields gets a short answer. */
export const MAX_LISTED_PROBLEMS = 10;

export function summarize(problems: string[]): string {
  const unique = [...new Set(problems)];
  if (unique.length === 0) return 'Invalid request';
  const listed = unique.slice(0, MAX_LISTED_PROBLEMS).join('; ');
  const more = unique.length - MAX_LISTED_PROBLEMS;
  return more > 0 ? `${listed}; and ${more} more` : listed;
}

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

// class-transformer skips these keys instead of reporting them: forbidNonWhitelisted misses them.
function reservedKey(value: unknown, where = ''): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const array = Array.isArray(value);
  for (const [key, child] of Object.entries(value)) {
    if (!array && (RESERVED_KEYS.has(key) || key in Object.prototype))
      return `${where}property ${key} should not exist`;
    // Only arrays hold nested objects (lines); any other object value is refused by its own field.
    const found =
      array || Array.isArray(child)
        ? reservedKey(child, array ? `${segment(key)}: ` : where)
        : undefined;
    if (found) return found;
  }
  return undefined;
}

export const API_VALIDATION_OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  stopAtFirstError: true,
  transform: true,
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => new ValidationFailedError(summarize(describe(errors))),
};

export class ApiValidationPipe extends ValidationPipe {
  // A query string's unknown parameters are ignored (a client's cache buster, say), not refused.
  private readonly queries = new ValidationPipe({
    ...API_VALIDATION_OPTIONS,
    forbidNonWhitelisted: false,
  });

  constructor() {
    super(API_VALIDATION_OPTIONS);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Path parameters have their own pipes (ParsePetIdPipe); DTO classes describe bodies.
    if (metadata.type === 'param' || metadata.type === 'custom') return value;
    if (metadata.type === 'query') return this.queries.transform(value, metadata);
    if (
      metadata.type === 'body' &&
      (typeof value !== 'object' || value === null || Array.isArray(value))
    ) {
      throw new ValidationFailedError('Request body must be a JSON object');
    }
    if (metadata.type === 'body') {
      const reserved = reservedKey(value);
      if (reserved) throw new ValidationFailedError(reserved);
    }
    return super.transform(value, metadata);
  }
}
