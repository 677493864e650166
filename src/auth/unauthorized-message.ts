import type { AppEnv } from '../config/app-config.js';
import { isWellFormedApiKey, keyPrefixFor } from './api-key.codec.js';

export const SEND_KEY_HINT = 'send it as "Authorization: Bearer <API_KEY>"';

export interface UnauthorizedReason {
  message: string;
  /** RFC 6750 §3.1: `invalid_token` when a bearer token was sent but cannot be used. */
  bearerError?: 'invalid_token';
}

const ENVIRONMENT_OF_PREFIX = {
  pk_live_: 'production',
  pk_test_: 'staging or development',
} as const;

// Unknown and revoked keys read alike, so a caller cannot probe which keys once existed.
export function unauthorizedReason(header: string | undefined, env: AppEnv): UnauthorizedReason {
  const value = header?.trim() ?? '';
  if (value === '') return { message: `An API key is required: ${SEND_KEY_HINT}` };
  const [scheme, ...rest] = value.split(/[ ]+/);
  if (rest.length === 0) {
    if (isWellFormedApiKey(scheme)) {
      return {
        message: `The API key was sent without the Bearer scheme: ${SEND_KEY_HINT}`,
      };
    }
    if (/^bearer$/i.test(scheme)) {
      return { message: `Authorization names the Bearer scheme but no key: ${SEND_KEY_HINT}` };
    }
    return { message: `Authorization does not hold an API key: ${SEND_KEY_HINT}` };
  }
  if (!/^bearer$/i.test(scheme)) {
    return {
      message: `Authorization uses the ${scheme} scheme, which this API does not accept: ${SEND_KEY_HINT}`,
    };
  }
  const token = rest.join(' ');
  const ours = keyPrefixFor(env);
  const theirs = ours === 'pk_live_' ? 'pk_test_' : 'pk_live_';
  if (rest.length === 1 && token.startsWith(theirs) && isWellFormedApiKey(token)) {
    return {
      message:
        `This API key belongs to ${ENVIRONMENT_OF_PREFIX[theirs]} (${theirs}…), but this is the ${env} ` +
        `server, which accepts only ${ours}… keys: call the ${ENVIRONMENT_OF_PREFIX[theirs]} API with it, ` +
        `or use a key issued for ${env}`,
      bearerError: 'invalid_token',
    };
  }
  return { message: 'The API key is invalid or has been revoked', bearerError: 'invalid_token' };
}
