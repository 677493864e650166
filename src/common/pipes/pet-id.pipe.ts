import { Injectable, PipeTransform } from '@nestjs/common';
import { ValidationFailedError } from '../errors/api-error.js';

export const INT64_MAX = 9223372036854775807n;

export function parseInt64Id(text: string): bigint | undefined {
  if (!/^[0-9]{1,64}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value >= 1n && value <= INT64_MAX ? value : undefined;
}

@Injectable()
export class ParsePetIdPipe implements PipeTransform<string, bigint> {
  transform(value: string): bigint {
    const id = parseInt64Id(value);
    if (id === undefined) {
      throw new ValidationFailedError('petId must be an integer from 1 to 9223372036854775807');
    }
    return id;
  }
}
