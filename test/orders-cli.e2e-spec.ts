import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, spawnCli } from './support/built-server.js';
import { createTestApp } from './support/create-test-app.js';

describe('CLI: orders import (e2e)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-orders-cli-'));
  const DATABASE_URL = `sqlite:${join(dir, 'petstore.sqlite')}`;
  const file = (name: string, content: string): string => {
    writeFileSync(join(dir, name), content);
    return name;
  };
  const cli = (...args: string[]) => spawnCli({ DATABASE_URL, APP_ENV: 'development' }, args, dir);

  beforeAll(async () => {
    await ensureBuilt();
    const pets = file(
      'pets.json',
      '[{"petId": 1, "quantity": 3, "status": "available"}, {"petId": 9007199254740993, "quantity": 1, "status": "pending"}]',
    );
    expect((await cli('inventory', 'import', pets)).code).toBe(0);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should import a file of orders, and the API should list them', async () => {
    const orders = file(
      'orders.json',
      '[{"id": 1, "petId": 9007199254740993, "quantity": 1, "status": "placed"},\n' +
        ' {"id": 2, "petId": 1, "quantity": 2, "status": "delivered", "shipDate": "2026-11-02T15:00:00Z"}]',
    );
    const result = await cli('orders', 'import', orders);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('Imported 2 orders from orders.json: 2 inserted, 0 updated.\n');

    const again = await cli('orders', 'import', orders, '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      file: 'orders.json',
      rows: 2,
      inserted: 0,
      updated: 2,
    });

    const t = await createTestApp({ DATABASE_URL, APP_ENV: 'development' });
    try {
      const key = await t.createKey();
      const res = await request(t.server)
        .get('/v1/store/orders')
        .set('Authorization', `Bearer ${key}`)
        .expect(200);
      expect(res.text).toBe(
        '[{"id":1,"petId":9007199254740993,"quantity":1,"status":"placed","complete":false},' +
          '{"id":2,"petId":1,"quantity":2,"status":"delivered","shipDate":"2026-11-02T15:00:00.000Z","complete":true}]',
      );
    } finally {
      await t.close();
    }
  });

  it('should refuse a file with invalid rows, listing each, and change nothing', async () => {
    const bad = file(
      'bad.json',
      '[{"id": 5, "petId": 1, "quantity": 0, "status": "lost"}, {"id": 6, "petId": 404, "quantity": 1, "status": "placed"}]',
    );
    const result = await cli('orders', 'import', bad);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'Error: bad.json was not imported (nothing was changed):\n' +
        '  row 1: quantity must be an integer from 1 to 2147483647\n' +
        '  row 1: status must be one of placed, approved, delivered\n',
    );
  });

  it('should refuse orders of pets outside the catalogue', async () => {
    const stray = file(
      'stray.json',
      '[{"id": 7, "petId": 1, "quantity": 1, "status": "placed"}, {"id": 8, "petId": 404, "quantity": 1, "status": "placed"}]',
    );
    const result = await cli('orders', 'import', stray);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'Error: stray.json was not imported (nothing was changed):\n  row 2: petId 404 is not in the catalogue\n',
    );
  });

  it('should report an unreadable file and a missing argument', async () => {
    expect(await cli('orders', 'import', 'missing.json')).toMatchObject({
      code: 1,
      stderr: 'Error: cannot read missing.json: no such file\n',
    });
    const usage = await cli('orders', 'import');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^Error: missing FILE\n/);
  });
});
