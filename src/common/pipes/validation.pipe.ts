import {
  ArgumentMetadata,
  ValidationError,
  ValidationPipe,
  type ValidationPipeOptions,
} from '@nestjs/common';
import { ValidationFailedError } from '../errors/api-error.js';

function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) =>
      message.startsWith(error.property) ? message.replace(error.property, path) : message,
    );
    return [...own, ...describe(error.children ?? [], path)];
  });
}

/** Problems an error message lists, at most: a body of a thousand unknown fields gets a short answer. */
export const MAX_LISTED_PROBLEMS = 10;

export function summarize(problems: string[]): string {
  const unique = [...new Set(problems)];
  if (unique.length === 0) return 'Invalid request';
  const listed = unique.slice(0, MAX_LISTED_PROBLEMS).join('; ');
  const more = unique.length - MAX_LISTED_PROBLEMS;
  return more > 0 ? `${listed}; and ${more} more` : listed;
}

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export const API_VALIDATION_OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  stopAtFirstError: true,
  transform: true,
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => new ValidationFailedError(summarize(describe(errors))),
};

// A body must be a JSON object before it is even compared with its DTO.
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
      // class-transformer skips these keys, and any named like an inherited method (toString,
      // hasOwnProperty…), instead of reporting them, so forbidNonWhitelisted would not.
      const reserved = Object.keys(value as object).filter(
        (key) => RESERVED_KEYS.has(key) || key in Object.prototype,
      );
      if (reserved.length > 0)
        throw new ValidationFailedError(`property ${reserved[0]} should not exist`);
    }
    return super.transform(value, metadata);
  }
}
