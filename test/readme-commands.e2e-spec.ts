import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, startServer, type RunningServer } from './support/built-server.js';

/**
 * The shell blocks marked ```` ```sh safe ```` in README.md, docs/ and client/README.md must work
 * as written on a fresh checkout: each page's blocks run in bash against a freshly started server
 * of their own (development, a new SQLite file, the demo data), with `KEY` holding the demo key
 * that server printed. Only the port differs: `localhost:3000` becomes the test server's.
 */
function safeBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const fence = /^```sh safe\n([\s\S]*?)^```$/gm;
  for (let match = fence.exec(markdown); match; match = fence.exec(markdown)) blocks.push(match[1]);
  return blocks;
}

/** A block's commands, one per entry: lines ending in a backslash continue the command. */
function commands(block: string): string[] {
  return block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  'client/README.md',
];
const pageCommands = (page: string) =>
  safeBlocks(readFileSync(join(ROOT, page), 'utf8')).flatMap(commands);

describe('commands marked safe to run', () => {
  it('should mark the first request, key creation, the CLI, adjustments and batches as safe', () => {
    const readme = pageCommands('README.md');
    expect(readme.some((c) => c.startsWith('curl') && c.includes('/v1/inventory'))).toBe(true);
    expect(readme.some((c) => c.includes('cli -- keys create'))).toBe(true);
    const idempotency = pageCommands('docs/idempotency.md');
    expect(idempotency.some((c) => c.includes('/adjustments'))).toBe(true);
    expect(idempotency.some((c) => c.includes('/v1/inventory/batch'))).toBe(true);
    expect(pageCommands('docs/keys.md').some((c) => c.includes('cli -- keys roll'))).toBe(true);
  });
});

describe.each(PAGES.filter((page) => pageCommands(page).length > 0))(
  '%s, its commands marked safe',
  (page) => {
    let dir: string;
    let server: RunningServer;
    let env: NodeJS.ProcessEnv;

    beforeAll(async () => {
      await ensureBuilt();
      dir = mkdtempSync(join(tmpdir(), 'petstore-readme-'));
      const database = `sqlite:${join(dir, 'petstore.sqlite')}`;
      const base = { APP_ENV: 'development', DATABASE_URL: database, LOG_LEVEL: 'info' };
      server = await startServer(base);
      const [, key] = await server.waitForOutput(
        /Demo API key \(free plan, shown once\): (pk_test_\w+)/,
      );
      env = { ...process.env, ...base, KEY: key };
    }, 60_000);

    afterAll(async () => {
      await server?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('should run every safe command on the demo data with exit status 0 and no error answer', () => {
      const port = new URL(server.url).port;
      for (const command of pageCommands(page)) {
        const run = spawnSync(
          'bash',
          ['-eo', 'pipefail', '-c', command.replaceAll('localhost:3000', `127.0.0.1:${port}`)],
          {
            cwd: ROOT,
            env,
            encoding: 'utf8',
            timeout: 60_000,
          },
        );
        expect({ command, status: run.status, stderr: run.stderr }).toMatchObject({
          command,
          status: 0,
        });
        // curl exits 0 on any HTTP answer: an Error body means the command did not do its job.
        expect({ command, stdout: run.stdout }).not.toMatchObject({
          stdout: expect.stringMatching(/"code":"\w+","message"/),
        });
      }
    }, 120_000);
  },
);
