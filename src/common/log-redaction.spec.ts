import { describe, expect, it } from 'vitest';
import { looksLikeApiKey, maskApiKeys, redactRequest } from './log-redaction.js';

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

  it('should mask keys in every string of a serialised request, names included', () => {
    const req = {
      id: 'abc',
      method: 'GET',
      url: `/v1/${KEY}`,
      query: { [KEY]: '1', list: [KEY] },
      headers: { referer: `https://x.example/?k=${KEY}`, authorization: 'Bearer x' },
      remotePort: 5,
    };
    expect(JSON.stringify(redactRequest(req))).not.toContain(KEY.slice(12));
    expect(redactRequest(req)).toMatchObject({
      id: 'abc',
      method: 'GET',
      remotePort: 5,
      headers: { authorization: 'Bearer x' },
    });
  });
});
