import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, ROOT } from '../support/built-server.js';
import { uniqueSuffix } from './support/cluster.js';
import { requireIntegrationContext } from './support/context.js';
import { dropDatabase, RUN_DATABASE_PREFIX } from './support/postgres.js';
import { NGINX } from './support/nginx.js';

const context = requireIntegrationContext();

/** A ```` ```sh <name> ```` block of docs/operations.md, as a reader copies it. */
function block(name: string): string {
  const page = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
  const blocks = [...page.matchAll(new RegExp(`^\`\`\`sh ${name}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))];
  expect(blocks).toHaveLength(1);
  return blocks[0][1];
}

function run(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: ROOT,
      env: { ...process.env, PATH: `${NGINX.replace(/\/nginx$/, '')}:${process.env.PATH}` },
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

/** Files the walk-through could leave in the checkout's top folder. */
const leftovers = () =>
  readdirSync(ROOT).filter((name) => name === 'pets.json' || /^instance-.*\.log$/.test(name));

describe('the scale-out walk-through in docs/operations.md (integration)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-walkthrough-'));
  const database = `${RUN_DATABASE_PREFIX}${context.run}_walkthrough_${uniqueSuffix()}`;
  let pids: number[] = [];

  afterAll(async () => {
    const work = existsSync(join(dir, 'work'))
      ? readFileSync(join(dir, 'work'), 'utf8').trim()
      : '';
    if (work && existsSync(join(work, 'nginx.pid')))
      spawnSync(NGINX, ['-p', work, '-c', 'nginx.conf', '-s', 'stop']);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    await dropDatabase(database);
    rmSync(dir, { recursive: true, force: true });
  });

  it('should run as written: two instances behind nginx, one shared limit, then clean up every trace', async () => {
    const [first, second, proxy] = [await freePort(), await freePort(), await freePort()];
    const walkthrough = block('walkthrough');
    const cleanup = block('walkthrough-cleanup');
    const exported = [...walkthrough.matchAll(/^export (.+)$/gm)].flatMap(([, list]) =>
      list.split(/\s+/).map((assignment) => assignment.split('=')[0]),
    );
    expect(exported).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'APP_ENV', 'LOG_LEVEL']),
    );
    // Ports are set once, in one line; no other line names one.
    expect(walkthrough.match(/\b(3001|3002|8080)\b/g)).toEqual(['3001', '3002', '8080']);
    // Only names change: the run's own database, Redis prefix and ports, and the scratch folder
    // made inside the test's. dist/ is built by the suite already (rebuilding it would rewrite
    // files other specs' servers are loading).
    const script = [walkthrough, cleanup]
      .join('\n')
      .replaceAll('petstore_scaleout:', `${context.redisKeyPrefix}walkthrough_${uniqueSuffix()}:`)
      .replaceAll('petstore_scaleout', database)
      .replace(
        'PORT_A=3001 PORT_B=3002 PROXY_PORT=8080',
        `PORT_A=${first} PORT_B=${second} PROXY_PORT=${proxy}`,
      )
      .replace('WORK=$(mktemp -d)', `WORK=$(mktemp -d -p '${dir}'); echo "$WORK" > '${dir}/work'`)
      .replace(/^npm run build$/m, 'true');
    expect(script).not.toMatch(/npm run build/);
    const before = leftovers();
    const names = exported.join('|');
    const { code, stdout, stderr } = await run(
      `trap 'jobs -p > ${dir}/pids' EXIT\n${script}\necho "left: $(env | cut -d= -f1 | grep -xE '${names}' | tr '\\n' ' ')"`,
    );
    pids = readFileSync(join(dir, 'pids'), 'utf8').split('\n').filter(Boolean).map(Number);
    expect({ code, stderr }).toMatchObject({ code: 0 });

    expect(stdout).toMatch(
      /^\{"name":"petstore-inventory","version":"[^"]+","links":\{"docs":"\/docs"/m,
    );
    expect(stdout).toMatch(/^Imported 2 rows from .*\/pets\.json: 2 inserted, 0 updated\.$/m);
    expect(stdout).toMatch(/^200 200 200 200 200 429 $/m);
    const status = JSON.parse(/^\{"plan".*$/m.exec(stdout)![0]) as {
      windows: { name: string; limit: number; remaining: number }[];
    };
    expect(status.windows.find((window) => window.name === 'day')).toMatchObject({
      limit: 5,
      remaining: 0,
    });

    // The clean-up: nothing exported is left, the instances and the scratch folder are gone.
    expect(stdout).toMatch(/^left: $/m);
    expect(pids).toEqual([]);
    const work = readFileSync(join(dir, 'work'), 'utf8').trim();
    expect(existsSync(work)).toBe(false);
    expect(leftovers()).toEqual(before);
  }, 180_000);
});
