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
      '0123456789abcdef0123456789abcde',
      'f47ac10b-58cc-4372-a567-0e02b2c3d479',
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

  it('should mask a key in any case, without its prefix, and percent-encoded', () => {
    const secret = KEY.slice('pk_live_'.length);
    const encoded = [...`pk_test_${secret}`].map((c) => `%${c.charCodeAt(0).toString(16)}`);
    for (const text of [
      `/v1/x?k=PK_LIVE_${secret}`,
      `/v1/x?k=${secret}`,
      `/v1/x?k=${secret.toLowerCase()}`,
      `/v1/x?k=pk_test%5F${secret}`,
      `/v1/x?k=pk_test%5f${secret.slice(0, 10)}%41%42${secret.slice(12)}`,
      `/v1/x?k=${encoded.join('')}`,
    ]) {
      const masked = maskApiKeys(text);
      expect(masked).toContain('…[redacted]');
      expect(masked).not.toMatch(/[0-9A-Za-z]{32}/);
      expect(looksLikeApiKey(text)).toBe(true);
    }
  });

  it('should cut long client text', () => {
    const masked = maskApiKeys(`/v1/${'a/'.repeat(10_000)}`);
    expect(masked.length).toBeLessThan(2100);
    expect(masked).toMatch(/…\[truncated\]$/);
  });
});
