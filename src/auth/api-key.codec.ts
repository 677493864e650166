import { hash, randomBytes } from 'node:crypto';
import type { AppEnv } from '../config/app-config.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const SECRET_LENGTH = 40;
const DISPLAY_SECRET_CHARS = 4;
const KEY_PATTERN = /^pk_(live|test)_[0-9A-Za-z]{32,128}$/;

export function keyPrefixFor(env: AppEnv): 'pk_live_' | 'pk_test_' {
  return env === 'production' ? 'pk_live_' : 'pk_test_';
}

export function generateApiKey(env: AppEnv): string {
  let secret = '';
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(SECRET_LENGTH)) {
      // 248 = 4 * 62: rejecting the top bytes keeps every character equally likely.
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += BASE62[byte % 62];
    }
  }
  return keyPrefixFor(env) + secret;
}

export function isWellFormedApiKey(raw: string): boolean {
  return KEY_PATTERN.test(raw);
}

// Runs on every request: the one-shot `hash` allocates no Hash object.
export function hashApiKey(raw: string): string {
  return hash('sha256', raw, 'hex');
}

export function displayPrefix(raw: string): string {
  return raw.slice(0, 'pk_test_'.length + DISPLAY_SECRET_CHARS);
}
