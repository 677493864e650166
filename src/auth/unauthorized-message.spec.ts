import { describe, expect, it } from 'vitest';
import { generateApiKey } from './api-key.codec.js';
import { unauthorizedReason } from './unauthorized-message.js';

const liveKey = generateApiKey('production');
const testKey = generateApiKey('development');

describe('unauthorizedReason', () => {
  it('should ask for a key when Authorization is missing or blank', () => {
    for (const header of [undefined, '', '   ']) {
      expect(unauthorizedReason(header, 'development')).toEqual({
        message: 'An API key is required: send it as "Authorization: Bearer <API_KEY>"',
      });
    }
  });

  it('should say a key sent without its scheme needs "Bearer "', () => {
    expect(unauthorizedReason(testKey, 'development')).toEqual({
      message:
        'The API key was sent without the Bearer scheme: send it as "Authorization: Bearer <API_KEY>"',
    });
  });

  it('should name another scheme, a bare "Bearer" and a value that is no key', () => {
    expect(unauthorizedReason('Basic dXNlcjpwYXNz', 'development').message).toBe(
      'Authorization uses the Basic scheme, which this API does not accept: send it as "Authorization: Bearer <API_KEY>"',
    );
    expect(unauthorizedReason('Bearer', 'development').message).toBe(
      'Authorization names the Bearer scheme but no key: send it as "Authorization: Bearer <API_KEY>"',
    );
    expect(unauthorizedReason('letmein', 'development').message).toBe(
      'Authorization does not hold an API key: send it as "Authorization: Bearer <API_KEY>"',
    );
  });

  it('should say which environment a key of the other one belongs to', () => {
    for (const env of ['development', 'staging'] as const) {
      expect(unauthorizedReason(`Bearer ${liveKey}`, env)).toEqual({
        message:
          `This API key belongs to production (pk_live_…), but this is the ${env} server, which accepts ` +
          `only pk_test_… keys: call the production API with it, or use a key issued for ${env}`,
        bearerError: 'invalid_token',
      });
    }
    expect(unauthorizedReason(`bearer ${testKey}`, 'production')).toEqual({
      message:
        'This API key belongs to staging or development (pk_test_…), but this is the production server, ' +
        'which accepts only pk_live_… keys: call the staging or development API with it, or use a key issued for production',
      bearerError: 'invalid_token',
    });
  });

  it('should give one message for every other bearer token, known or not, of this environment', () => {
    const invalid = {
      message: 'The API key is invalid or has been revoked',
      bearerError: 'invalid_token',
    };
    for (const header of [
      `Bearer ${testKey}`,
      'Bearer pk_test_short',
      `Bearer ${liveKey.slice(0, 20)}`,
      'Bearer not-a-key',
      `Bearer ${testKey} extra`,
    ]) {
      expect(unauthorizedReason(header, 'development'), header).toEqual(invalid);
    }
    expect(unauthorizedReason(`Bearer ${liveKey}`, 'production')).toEqual(invalid);
  });
});
