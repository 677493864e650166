import { defineConfig } from 'vitest/config';
import { unavailableServices } from './test/integration/support/services.js';
import base from './vitest.config.js';

/**
 * `npm run test:integration`: the e2e specs again (but SLOW_SPECS, which run on SQLite only), each
 * app on a PostgreSQL database of its own, plus the multi-process specs (several
 * `node dist/main.js` sharing PostgreSQL and Redis).
 * Without those servers a developer sees the suite skipped, with the reason; CI must have them.
 */
export default defineConfig(async () => {
  const problems = await unavailableServices();
  if (problems.length > 0) {
    const reasons = problems.map((problem) => `  - ${problem}`).join('\n');
    if (process.env.CI === 'true') {
      throw new Error(
        `The integration suite needs PostgreSQL and Redis, and under CI a missing one is a failure:\n${reasons}`,
      );
    }
    process.stderr.write(
      `\n  SKIPPED: integration suite (PostgreSQL + Redis). Not reachable:\n${reasons}\n` +
        '  Start them (or set INTEGRATION_POSTGRES_URL / INTEGRATION_REDIS_URL) to run it.\n\n',
    );
    return { ...base, test: { ...base.test, include: [], passWithNoTests: true } };
  }
  return {
    ...base,
    test: {
      ...base.test,
      include: ['test/**/*.e2e-spec.ts', 'test/integration/**/*.int-spec.ts'],
      globalSetup: ['test/integration/global-setup.ts'],
    },
  };
});
