import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InventoryChangeEntity } from '../src/inventory/history/inventory-change.entity.js';
import { ensureBuilt, spawnCli } from './support/built-server.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

const BIG = '9223372036854775807';

describe('CLI inventory history (e2e)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-history-cli-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'history.sqlite')}`, APP_ENV: 'staging' };
  const cli = (...args: string[]) => spawnCli(env, args, dir);
  let t: TestApp;
  let auth: string;

  beforeAll(async () => {
    await ensureBuilt();
    t = await createTestApp(env);
    auth = `Bearer ${await t.createKey()}`;
  }, 180_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("should print a pet's changes from the import and the API, oldest first, as a table and as JSON", async () => {
    writeFileSync(
      join(dir, 'pets.json'),
      `[{"petId":${BIG},"quantity":3,"status":"available"},{"petId":7,"quantity":1,"status":"pending"}]`,
    );
    expect((await cli('inventory', 'import', 'pets.json')).code).toBe(0);
    await request(t.server)
      .patch(`/v1/inventory/${BIG}`)
      .set('Authorization', auth)
      .set('X-Request-Id', 'count-42')
      .send({ quantity: 0, reason: 'damaged', reference: 'sheet 12' })
      .expect(200);

    const json = await cli('inventory', 'history', BIG, '--json');
    expect(json.code).toBe(0);
    expect(json.stdout).toContain(`"petId":${BIG}`);
    const changes = JSON.parse(json.stdout);
    expect(changes).toHaveLength(2);
    expect(changes[0]).toMatchObject({
      previousQuantity: null,
      previousStatus: null,
      quantity: 3,
      status: 'available',
      source: 'import',
      keyId: null,
    });
    expect(changes[1]).toMatchObject({
      previousQuantity: 3,
      quantity: 0,
      previousStatus: 'available',
      status: 'sold',
      reason: 'damaged',
      reference: 'sheet 12',
      source: 'api',
      requestId: 'count-42',
    });

    const text = await cli('inventory', 'history', BIG);
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^ID\s+CHANGED\s+QUANTITY\s+STATUS\s+REASON\s+REFERENCE\s+SOURCE\s+KEY\s+REQUEST$/,
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/\s3\s+available\s+-\s+-\s+import\s/);
    expect(lines[2]).toMatch(
      /3 -> 0\s+available -> sold\s+damaged\s+sheet 12\s+api\s+\d+\s+count-42$/,
    );
  }, 60_000);

  it('should print control, escape and bidi characters of a reference escaped, so it can neither redraw the screen nor fake rows', async () => {
    await t.seed([{ petId: 9n, name: 'Esc', status: 'available', quantity: 5 }]);
    const reference = 'PO-1\u001b[2J\u001b[H\r\n12  2 -> 0  sold\u202eevil\u2066\u0001\u007f\u009b';
    await request(t.server)
      .patch('/v1/inventory/9')
      .set('Authorization', auth)
      .send({ quantity: 2, reason: 'correction', reference: 'to be replaced' })
      .expect(200);
    // The API refuses control characters; text written by maintenance SQL or before that can hold them.
    await t.app
      .get(DataSource)
      .getRepository(InventoryChangeEntity)
      .update({ reference: 'to be replaced' }, { reference });
    // eslint-disable-next-line no-control-regex
    const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

    const text = await cli('inventory', 'history', '9');
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(raw);
    const lines = text.stdout.trim().split('\n');
    // The header, the seed's import and the update: nothing more.
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain(
      'PO-1\\u001b[2J\\u001b[H\\u000d\\u000a12  2 -> 0  sold\\u202eevil\\u2066\\u0001\\u007f\\u009b',
    );

    const json = await cli('inventory', 'history', '9', '--json');
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(raw);
    expect(json.stdout).toContain('\\u202eevil\\u2066');
    expect(JSON.parse(json.stdout)[1].reference).toBe(reference);
  }, 60_000);

  it('should exit 1 for an unknown pet and 2 for a malformed id', async () => {
    const [unknown, malformed] = await Promise.all([
      cli('inventory', 'history', '4'),
      cli('inventory', 'history', 'abc'),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No pet with id 4');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('PET_ID');
  }, 60_000);
});
