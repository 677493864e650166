import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { INT64_MAX, parseInt64Id, ParsePetIdPipe } from './pet-id.pipe.js';

describe('parseInt64Id', () => {
  it('should parse ids up to 2^63-1 without precision loss', () => {
    expect(parseInt64Id('1')).toBe(1n);
    expect(parseInt64Id('9007199254740993')).toBe(9007199254740993n);
    expect(parseInt64Id('9223372036854775807')).toBe(INT64_MAX);
  });

  it('should accept leading zeros as the same decimal value', () => {
    expect(parseInt64Id('0042')).toBe(42n);
  });

  it('should reject zero, overflow and anything but decimal digits', () => {
    for (const bad of [
      '0',
      '9223372036854775808',
      '99999999999999999999',
      '-1',
      '+1',
      '1.0',
      '1e3',
      '0x10',
      ' 1',
      '1 ',
      '',
      'abc',
      '１',
    ]) {
      expect(parseInt64Id(bad), bad).toBeUndefined();
    }
  });
});

describe('ParsePetIdPipe', () => {
  it('should fail with validation_failed naming the accepted range', () => {
    const pipe = new ParsePetIdPipe();
    expect(pipe.transform('12')).toBe(12n);
    try {
      pipe.transform('abc');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).toBody()).toEqual({
        code: 'validation_failed',
        message: 'petId must be an integer from 1 to 9223372036854775807',
        status: 400,
      });
    }
  });
});
