import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const CLIENT_DIR = fileURLToPath(new URL('..', import.meta.url));
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

const CONSUMER_JS = `
import { createClient, ApiError, NetworkError } from '@petstore/inventory-client';
const client = createClient({
  baseUrl: 'https://api.example.test/v1',
  apiKey: 'pk_test_x',
  fetch: async () => new Response('[{"petId":9223372036854775807,"quantity":1,"status":"available"}]', {
    headers: { 'content-type': 'application/json' },
  }),
});
const [item] = await client.inventory.list();
console.log(JSON.stringify({
  petId: item.petId.toString(),
  type: typeof item.petId,
  errors: [typeof ApiError, typeof NetworkError],
}));
`;

const CONSUMER_TS = `
import { createClient, ApiError, type InventoryItem, type ApiErrorCode } from '@petstore/inventory-client';
const client = createClient({ baseUrl: 'https://api.example.test/v1', apiKey: 'k' });
export async function first(): Promise<bigint> {
  const items: InventoryItem[] = await client.inventory.list();
  return items[0].petId;
}
export function codeOf(err: unknown): ApiErrorCode | undefined {
  return err instanceof ApiError ? err.code : undefined;
}
`;

/** What a consumer does: pack the client, install the tarball into an empty project, import it. */
describe('client package (e2e)', () => {
  let work: string;
  let tarball: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'inventory-client-'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: CLIENT_DIR,
    });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[];
    tarball = join(work, packed.filename);
  }, 120_000);
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('should install from its tarball into an empty project and import there', async () => {
    const project = join(work, 'consumer');
    await run('mkdir', ['-p', project]);
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    await run('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: project });
    const installed = join(project, 'node_modules/@petstore/inventory-client');
    expect((await readdir(join(installed, 'dist'))).sort()).toEqual(
      expect.arrayContaining(['index.js', 'index.d.ts']),
    );
    expect(await readdir(join(project, 'node_modules'))).toContain('lossless-json');

    await writeFile(join(project, 'consumer.mjs'), CONSUMER_JS);
    const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({
      petId: '9223372036854775807',
      type: 'bigint',
      errors: ['function', 'function'],
    });

    await writeFile(join(project, 'consumer.ts'), CONSUMER_TS);
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
        },
        files: ['consumer.ts'],
      }),
    );
    await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project });
  }, 180_000);

  it('should ship only its build, without Node built-ins, so it bundles for a browser', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n');
    expect(files).toContain('package/dist/index.js');
    expect(
      files.filter((f) => !/^package\/(dist\/.*\.(js|d\.ts)|package\.json|README\.md)$/.test(f)),
    ).toEqual([]);
    const result = await build({
      entryPoints: [join(CLIENT_DIR, 'dist/index.js')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    const bundle = result.outputFiles[0].text;
    expect(bundle).toContain('createClient');
    expect(bundle).not.toMatch(/\bnode:|\brequire\(|\bprocess\.|\bBuffer\b/);
    const manifest = JSON.parse(await readFile(join(CLIENT_DIR, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies)).toEqual(['lossless-json']);
  });
});
