import { describe, expect, it } from 'vitest';
import {
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  keyPrefixFor,
  SECRET_LENGTH,
} from './api-key.codec.js';

describe('api key codec', () => {
  it('should prefix production keys pk_live_ and every other environment pk_test_', () => {
    expect(keyPrefixFor('production')).toBe('pk_live_');
    expect(keyPrefixFor('staging')).toBe('pk_test_');
    expect(keyPrefixFor('development')).toBe('pk_test_');
    expect(generateApiKey('production')).toMatch(/^pk_live_[0-9A-Za-z]{40}$/);
    expect(generateApiKey('staging')).toMatch(/^pk_test_[0-9A-Za-z]{40}$/);
  });

  it('should generate at least 32 base62 characters after the prefix, never the same twice', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('development')));
    expect(keys.size).toBe(1000);
    expect(SECRET_LENGTH).toBeGreaterThanOrEqual(32);
    for (const key of keys) expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('should use the whole base62 alphabet', () => {
    const seen = new Set(
      Array.from({ length: 200 }, () => generateApiKey('development').slice(8)).join(''),
    );
    expect(seen.size).toBe(62);
  });

  it('should hash with SHA-256 as lowercase hex', () => {
    expect(hashApiKey('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('should reject malformed keys', () => {
    for (const bad of [
      '',
      'pk_test_short',
      'sk_test_' + 'a'.repeat(40),
      'pk_test_' + 'a'.repeat(39) + '!',
      'pk_dev_' + 'a'.repeat(40),
    ]) {
      expect(isWellFormedApiKey(bad)).toBe(false);
    }
  });

  it('should show only the prefix and four secret characters', () => {
    const key = generateApiKey('production');
    expect(displayPrefix(key)).toBe(key.slice(0, 12));
    expect(displayPrefix(key)).toMatch(/^pk_live_[0-9A-Za-z]{4}$/);
  });
});
