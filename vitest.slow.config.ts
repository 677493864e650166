import { configDefaults, defineConfig } from 'vitest/config';
import base, { SLOW_SPECS } from './vitest.config.js';

/** `npm run test:slow`: the suites `npm test` leaves out (see SLOW_SPECS); CI runs both. */
export default defineConfig({
  ...base,
  test: { ...base.test, include: SLOW_SPECS, exclude: configDefaults.exclude },
});
