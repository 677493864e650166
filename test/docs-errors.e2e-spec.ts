import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../src/common/errors/error-code.js';

const page = readFileSync(new URL('../docs/api-errors.md', import.meta.url), 'utf8');

describe('docs/api-errors.md', () => {
  it('should have a row for every error code the service answers, with its status', () => {
    const rows = new Map<string, number>();
    for (const [, status, code] of page.matchAll(/^\| (\d{3}) +\| `([a-z_]+)` /gm))
      rows.set(code, Number(status));
    expect(Object.fromEntries(rows)).toEqual(ERROR_STATUS);
  });
});
