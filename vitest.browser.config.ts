import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/** `npm run test:browser`: the specs that drive a real browser; a missing browser fails them. */
export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/browser/**/*.browser-spec.ts'] },
});
