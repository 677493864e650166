import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, renderClientTypes } from '../../scripts/client-types.mjs';
import { exportOpenApiDocument } from '../../src/openapi/openapi-export.js';

describe('generated client types', () => {
  it('should be exactly what the live OpenAPI document generates (else run `npm run client:types`)', async () => {
    const committed = await readFile(CLIENT_TYPES_FILE, 'utf8');
    const live = await renderClientTypes(await exportOpenApiDocument());
    expect(live, 'client/src/generated/openapi.ts is stale: run `npm run client:types`').toBe(
      committed,
    );
  });
});
