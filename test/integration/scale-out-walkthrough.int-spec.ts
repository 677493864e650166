import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, ROOT } from '../support/built-server.js';
import { uniqueSuffix } from './support/cluster.js';
import { requireIntegrationContext } from './support/context.js';
import { dropDatabase, RUN_DATABASE_PREFIX } from './support/postgres.js';

const context = requireIntegrationContext();

/** docs/operations.md's ```` ```sh walkthrough ```` block, as a reader copies it. */
function walkthrough(): string {
  const page = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
  const blocks = [...page.matchAll(/^```sh walkthrough\n([\s\S]*?)^```$/gm)].map(([, b]) => b);
  expect(blocks).toHaveLength(1);
  return blocks[0];
}

function run(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', APP_ENV: '' },
      timeout: 150_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function stopped(pid: number): Promise<void> {
  return new Promise((resolve) => {
    const poll = () => {
      try {
        process.kill(pid, 0);
        setTimeout(poll, 50);
      } catch {
        resolve();
      }
    };
    poll();
  });
}

describe('the scale-out walk-through in docs/operations.md (integration)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-walkthrough-'));
  const database = `${RUN_DATABASE_PREFIX}${context.run}_walkthrough_${uniqueSuffix()}`;
  let pids: number[] = [];

  afterAll(async () => {
    spawn('nginx', ['-p', dir, '-c', 'nginx.conf', '-s', 'stop']);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    await Promise.all(pids.map(stopped));
    await dropDatabase(database);
    rmSync(dir, { recursive: true, force: true });
  });

  it('should run as written: two instances behind nginx, imported pets, one shared limit', async () => {
    const [first, second, proxy] = [await freePort(), await freePort(), await freePort()];
    // Only names change: the run's own database, Redis prefix, ports and folder. dist/ is built
    // by the suite already (rebuilding it would rewrite files other specs' servers are loading).
    const script = walkthrough()
      .replaceAll('petstore_scaleout:', `${context.redisKeyPrefix}walkthrough_${uniqueSuffix()}:`)
      .replaceAll('petstore_scaleout', database)
      .replaceAll('3001', String(first))
      .replaceAll('3002', String(second))
      .replaceAll('8080', String(proxy))
      .replaceAll('/tmp/petstore-nginx', dir)
      .replaceAll('> instance-', `> ${dir}/instance-`)
      .replaceAll('pets.json', `${dir}/pets.json`)
      .replace(/^npm run build$/m, 'true');
    expect(script).not.toMatch(/npm run build/);
    // The two instances outlive the script: their ids, to stop them afterwards.
    const { code, stdout, stderr } = await run(`trap 'jobs -p > ${dir}/pids' EXIT\n${script}`);
    pids = readFileSync(join(dir, 'pids'), 'utf8').split('\n').filter(Boolean).map(Number);
    expect({ code, stderr }).toMatchObject({ code: 0 });
    expect(pids).toHaveLength(2);

    expect(stdout).toMatch(
      /^\{"name":"petstore-inventory","version":"[^"]+","links":\{"docs":"\/docs"/m,
    );
    expect(stdout).toContain(`Imported 2 rows from ${dir}/pets.json: 2 inserted, 0 updated.`);
    expect(stdout).toMatch(/^200 200 200 200 200 429 $/m);
    const status = JSON.parse(/^\{"plan".*$/m.exec(stdout)![0]) as {
      windows: { name: string; limit: number; remaining: number }[];
    };
    expect(status.windows.find((window) => window.name === 'day')).toMatchObject({
      limit: 5,
      remaining: 0,
    });
  }, 180_000);
});
