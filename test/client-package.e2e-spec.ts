import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey } from './support/demo-key.js';
import { ensureBuilt, ROOT, type RunningServer, startServer } from './support/built-server.js';

const run = promisify(execFile);
const CLIENT = join(ROOT, 'client');

/** `npm pack FOLDER` run in `destination`, as the README says: the tarball is written there. */
async function pack(folder: string, destination: string, scripts = true): Promise<string> {
  const flags = scripts ? [] : ['--ignore-scripts'];
  const { stdout } = await run('npm', ['pack', '--json', ...flags, folder], { cwd: destination });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[];
  return join(destination, packed.filename);
}

/** The README's first call: its one `js` block, and the file name the README saves it as. */
function firstCall(): { file: string; code: string } {
  const readme = readFileSync(join(CLIENT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map(([, code]) => code);
  expect(blocks).toHaveLength(1);
  const before = readme.slice(0, readme.indexOf('```js\n')).replace(/\s+/g, ' ');
  const file = /save this as `([\w.-]+)`/.exec(before)?.[1];
  expect(file, 'the file name the README saves the first call as').toBeDefined();
  expect(before).toContain(`run \`node ${file}\``);
  return { file: file!, code: blocks[0] };
}

/**
 * What client/README.md tells a user to do: pack the client, install the tarball into an empty
 * project (offline: its dependency comes packed from this checkout, not from a registry), and
 * call a running server with the README's own first call.
 */
describe('client package, installed from its tarball (e2e)', () => {
  const work = mkdtempSync(join(tmpdir(), 'petstore-client-package-'));
  const project = join(work, 'consumer');
  let server: RunningServer;
  let key: string;

  beforeAll(async () => {
    await ensureBuilt();
    server = await startServer({
      DATABASE_URL: `sqlite:${join(work, 'server.sqlite')}`,
      APP_ENV: 'development',
      LOG_LEVEL: 'info',
    });
    key = await demoKey(server);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('should install offline into an empty project and call the server as the README shows', async () => {
    const manifest = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      exports: Record<string, { types: string; import: string }>;
    };
    expect(manifest.exports['.']).toEqual({
      types: './dist/index.d.ts',
      import: './dist/index.js',
    });
    // `npm test` has built the client; client/test/package.e2e-spec.ts packs it with its build
    // script, and two builds writing client/dist at once would hand one pack a half-written file.
    const tarballs = [await pack(CLIENT, work, false)];
    for (const dependency of Object.keys(manifest.dependencies ?? {}))
      // As installed: its own development scripts have nothing to do here.
      tarballs.push(await pack(join(ROOT, 'node_modules', dependency), work, false));

    // Packing as the README says leaves nothing in the checkout.
    const { stdout: untracked } = await run(
      'git',
      ['status', '--porcelain', '--untracked-files=all', '--', 'client'],
      { cwd: ROOT },
    );
    expect(untracked).not.toMatch(/\.tgz/);

    // A project as `npm init -y` makes it (CommonJS by default).
    mkdirSync(project);
    await run('npm', ['init', '-y'], { cwd: project });
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tarballs], {
      cwd: project,
    });
    const installed = JSON.parse(
      readFileSync(join(project, 'node_modules/@petstore/inventory-client/package.json'), 'utf8'),
    ) as { name: string };
    expect(installed.name).toBe('@petstore/inventory-client');

    // As written, but for the port of the server under test; the key in KEY, as the README says.
    const { file, code } = firstCall();
    writeFileSync(join(project, file), code.replaceAll('localhost:3000', new URL(server.url).host));
    const { stdout } = await run(process.execPath, [file], {
      cwd: project,
      env: { ...process.env, KEY: key },
    });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^\d+ pets in stock; the first is pet 1$/);
    const [, before, after] = /^pet 1: (\d+) -> (\d+) \((available|pending)\)$/.exec(lines[1])!;
    expect(Number(after)).toBe(Number(before) + 1);
    expect(lines[2]).toMatch(/^404 not_found: /);

    const stock = (await (
      await fetch(`${server.url}/v1/inventory/1`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { quantity: number };
    expect(stock.quantity).toBe(Number(after));
  }, 180_000);
});
