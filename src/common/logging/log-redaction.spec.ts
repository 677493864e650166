import { describe, expect, it } from 'vitest';
import { looksLikeApiKey, maskApiKeys, redactHeaders } from './log-redaction.js';

const KEY = 'pk_live_0123456789ABCDEFGHIJabcdefghij0123456789';

describe('log redaction', () => {
  it('should mask every key-shaped token and keep only its display prefix', () => {
    expect(maskApiKeys(`/v1/inventory?api_key=${KEY}&b=pk_test_${KEY.slice(8)}`)).toBe(
      '/v1/inventory?api_key=pk_live_0123…[redacted]&b=pk_test_0123…[redacted]',
    );
  });

  it('should leave display prefixes, short tokens and other text alone', () => {
    for (const text of [
      'key pk_test_AbCd revoked',
      'pk_test_0123456789ABCDE',
      '/v1/inventory/42',
      '',
    ]) {
      expect(maskApiKeys(text)).toBe(text);
      expect(looksLikeApiKey(text)).toBe(false);
    }
    expect(looksLikeApiKey(KEY)).toBe(true);
  });

  it('should redact credential headers and mask keys in every other header, names included', () => {
    const headers = {
      authorization: 'Bearer x',
      cookie: 'session=1',
      'x-api-key': 'anything',
      referer: `https://x.example/?k=${KEY}`,
      [KEY]: '1',
      'x-forwarded-for': ['10.0.0.1', KEY],
      accept: 'application/json',
    };
    const shown = redactHeaders(headers);
    expect(JSON.stringify(shown)).not.toContain(KEY.slice(12));
    expect(shown).toMatchObject({
      authorization: '[redacted]',
      cookie: '[redacted]',
      'x-api-key': '[redacted]',
      referer: 'https://x.example/?k=pk_live_0123…[redacted]',
      'pk_live_0123…[redacted]': '1',
      'x-forwarded-for': ['10.0.0.1', 'pk_live_0123…[redacted]'],
      accept: 'application/json',
    });
  });
});
