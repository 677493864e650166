import { availableParallelism } from 'node:os';
import swc from 'unplugin-swc';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * `npm run test:slow`, not `npm test`: suites that kill server processes over and over while
 * writes stream in, seconds of wall time each that no change of test code makes shorter.
 */
export const SLOW_SPECS = ['test/crash-durability.e2e-spec.ts', 'test/history-crash.e2e-spec.ts'];

export default defineConfig({
  plugins: [
    swc.vite({
      module: { type: 'es6' },
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
      },
    }),
  ],
  test: {
    include: [
      'src/**/*.spec.ts',
      'test/**/*.e2e-spec.ts',
      'client/test/**/*.spec.ts',
      'client/test/**/*.e2e-spec.ts',
      'bench/**/*.spec.ts',
    ],
    exclude: [...configDefaults.exclude, ...SLOW_SPECS],
    pool: 'forks',
    // One worker per core, not Vitest's default of one less: spec files spend much of their time
    // waiting on servers, databases and timers.
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
