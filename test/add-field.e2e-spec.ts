import { execFile } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, type RunningServer, startServer } from './support/built-server.js';

const run = promisify(execFile);

/**
 * docs/architecture.md "Adding a field to InventoryItem", followed word for word in a copy of the
 * project: an optional `location` on PetEntity, InventoryItem and InventoryUpdate, a migration per
 * dialect, the client's types regenerated. Nothing else is edited, and the copy is built, started
 * and used through the API and the CLI.
 */
const SCRATCH = mkdtempSync(join(tmpdir(), 'petstore-add-field-'));
const DATABASE_URL = `sqlite:${join(SCRATCH, 'data', 'petstore.sqlite')}`;

function edit(path: string, anchor: string, insert: string, where: 'before' | 'after'): void {
  const file = join(SCRATCH, path);
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(anchor);
  if (at < 0) throw new Error(`${path} no longer holds ${JSON.stringify(anchor)}`);
  const cut = where === 'before' ? at : at + anchor.length;
  writeFileSync(file, text.slice(0, cut) + insert + text.slice(cut));
}

const LOCATION_DOC = `@ApiProperty({
    type: 'string',
    minLength: 1,
    maxLength: 64,
    required: false,
    example: 'Aisle 7',
    description: 'Where the pet is kept',
  })`;

function addLocationField(): void {
  // 1. The column on PetEntity.
  edit(
    'src/inventory/pet.entity.ts',
    '  @UpdateDateColumn',
    `  @Column({ type: 'varchar', length: 64, nullable: true })\n  location!: string | null;\n\n`,
    'before',
  );
  // 2. The property on InventoryItem, and on InventoryUpdate with its class-validator decorators.
  edit(
    'src/inventory/dto/inventory-item.dto.ts',
    '  status!: PetStatus;\n',
    `\n  ${LOCATION_DOC}\n  location?: string;\n`,
    'after',
  );
  edit(
    'src/inventory/dto/inventory-update.dto.ts',
    "import { ChangeContext } from './change-context.dto.js';\n",
    "import { IsOptional, IsString, Length } from 'class-validator';\n",
    'after',
  );
  edit(
    'src/inventory/dto/inventory-update.dto.ts',
    '  quantity!: number;\n',
    `\n  ${LOCATION_DOC}\n  @IsOptional()\n  @IsString()\n  @Length(1, 64)\n  location?: string;\n`,
    'after',
  );
  // 3. A migration per dialect, listed in migrations/index.ts.
  for (const dialect of ['sqlite', 'postgres']) {
    writeFileSync(
      join(SCRATCH, `src/database/migrations/${dialect}/1799999999999-PetLocation.ts`),
      `import { MigrationInterface, QueryRunner } from 'typeorm';

export class PetLocation1799999999999 implements MigrationInterface {
  name = 'PetLocation1799999999999';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(\`ALTER TABLE "pets" ADD "location" varchar(64)\`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(\`ALTER TABLE "pets" DROP COLUMN "location"\`);
  }
}
`,
    );
  }
  edit(
    'src/database/migrations/index.ts',
    '\n// Listed',
    "\nimport { PetLocation1799999999999 as SqlitePetLocation } from './sqlite/1799999999999-PetLocation.js';\nimport { PetLocation1799999999999 as PostgresPetLocation } from './postgres/1799999999999-PetLocation.js';\n",
    'before',
  );
  edit(
    'src/database/migrations/index.ts',
    'SQLITE_MIGRATIONS = [\n',
    '  SqlitePetLocation,\n',
    'after',
  );
  edit(
    'src/database/migrations/index.ts',
    'POSTGRES_MIGRATIONS = [\n',
    '  PostgresPetLocation,\n',
    'after',
  );
}

/** The built CLI of the copy, against its database. */
async function cli(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [join(SCRATCH, 'dist/cli/cli.js'), ...args], {
    cwd: SCRATCH,
    env: { ...process.env, DATABASE_URL, APP_ENV: 'staging' },
  });
  return stdout;
}

describe('Adding a field to InventoryItem, as docs/architecture.md says (scratch copy)', () => {
  let server: RunningServer;
  let key: string;

  beforeAll(async () => {
    for (const path of ['src', 'scripts', 'client/src/generated'])
      cpSync(join(ROOT, path), join(SCRATCH, path), { recursive: true });
    for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json'])
      copyFileSync(join(ROOT, file), join(SCRATCH, file));
    symlinkSync(join(ROOT, 'node_modules'), join(SCRATCH, 'node_modules'), 'dir');
    mkdirSync(join(SCRATCH, 'data'));
    addLocationField();
    await run(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      { cwd: SCRATCH },
    );
    // 4. The client's types, regenerated.
    await run(process.execPath, ['scripts/client-types.mjs'], { cwd: SCRATCH });

    key = (await cli('keys', 'create', '--plan', 'pro')).trim().split('\n').at(-1)!;
    const rows = [
      { petId: 1, quantity: 3, status: 'available', name: 'Rex', location: 'Shelf 1' },
      { petId: 2, quantity: 0, status: 'sold', name: 'Tom' },
    ];
    writeFileSync(join(SCRATCH, 'pets.json'), JSON.stringify(rows));
    await cli('inventory', 'import', join(SCRATCH, 'pets.json'));
    server = await startServer({ DATABASE_URL, APP_ENV: 'staging' }, SCRATCH);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(SCRATCH, { recursive: true, force: true });
  });

  const call = (method: string, path: string, body?: unknown, headers = {}) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const patch = (body: unknown, headers = {}) => call('PATCH', '/v1/inventory/2', body, headers);
  const item = async (petId: number) => {
    const res = await call('GET', `/v1/inventory/${petId}`);
    expect(res.status).toBe(200);
    return { text: await res.text(), etag: res.headers.get('etag') };
  };
  const listing = async () => (await call('GET', '/v1/inventory')).json();
  const changes = async () =>
    ((await (await call('GET', '/v1/inventory/2/changes')).json()) as unknown[]).length;

  it('should document the field and regenerate the client types with it', () => {
    const types = readFileSync(join(SCRATCH, 'client/src/generated/openapi.ts'), 'utf8');
    expect(types.match(/location\?: string;/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('should carry the field from an import row to the item and the listing', async () => {
    expect((await item(1)).text).toBe(
      '{"petId":1,"quantity":3,"status":"available","location":"Shelf 1","available":3}',
    );
    expect((await item(2)).text).toBe('{"petId":2,"quantity":0,"status":"sold","available":0}');
  });

  it('should store a PATCH of the field, answer and list it, and move the ETag with it', async () => {
    const before = await item(2);
    const res = await patch({ quantity: 5, location: 'Aisle 7' });
    expect(res.status).toBe(200);
    const answer =
      '{"petId":2,"quantity":5,"status":"available","location":"Aisle 7","available":5}';
    expect(await res.text()).toBe(answer);
    const etag = res.headers.get('etag');
    expect(etag).not.toBe(before.etag);
    expect(await item(2)).toEqual({ text: answer, etag });
    expect(await listing()).toContainEqual(JSON.parse(answer));

    // The field alone: the ETag and the listing move, the stock history does not.
    const history = await changes();
    const moved = await patch({ quantity: 5, location: 'Aisle 8' });
    expect(moved.status).toBe(200);
    expect(moved.headers.get('etag')).not.toBe(etag);
    expect(await listing()).toContainEqual({
      petId: 2,
      quantity: 5,
      status: 'available',
      location: 'Aisle 8',
      available: 5,
    });
    expect(await changes()).toBe(history);
    expect((await patch({ quantity: 9 }, { 'If-Match': etag! })).status).toBe(412);
  });

  it('should keep the field through a PATCH that leaves it out, and refuse an empty one', async () => {
    await patch({ quantity: 4, location: 'Aisle 9' });
    const kept = await patch({ quantity: 6 });
    expect(await kept.text()).toBe(
      '{"petId":2,"quantity":6,"status":"available","location":"Aisle 9","available":6}',
    );
    const empty = await patch({ quantity: 6, location: '' });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { code: string }).code).toBe('validation_failed');
    expect((await item(2)).text).toBe(
      '{"petId":2,"quantity":6,"status":"available","location":"Aisle 9","available":6}',
    );
  });

  it('should show the field in an adjustment and its idempotent replay', async () => {
    const adjust = () =>
      call('POST', '/v1/inventory/1/adjustments', { delta: 2 }, { 'Idempotency-Key': 'add-2' });
    const first = await adjust();
    expect(first.status).toBe(200);
    const answer =
      '{"petId":1,"quantity":5,"status":"available","location":"Shelf 1","available":5}';
    expect(await first.text()).toBe(answer);
    const replay = await adjust();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(answer);
  });
});
