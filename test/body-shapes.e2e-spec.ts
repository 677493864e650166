import fc from 'fast-check';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/create-test-app.js';

/** Bodies the document does not allow never reach a write: 400 validation_failed, nothing changed. */
describe('body shapes at every depth (e2e)', () => {
  let t: TestApp;
  let key: string;
  let dataSource: DataSource;
  let seededChanges: number;

  beforeAll(async () => {
    t = await createTestApp();
    dataSource = t.app.get(DataSource);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    key = await t.createKey({ plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 });
    await t.seed([
      { petId: 1n, name: 'Rex', status: 'available', quantity: 5 },
      { petId: 2n, name: 'Tom', status: 'pending', quantity: 2 },
    ]);
    seededChanges = await changeCount();
  });

  let sent = 0;
  const post = (path: string, text: string) =>
    request(t.server)
      .post(path)
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', `shape-${++sent}`)
      .set('Content-Type', 'application/json')
      .send(text);
  const patch = (text: string) =>
    request(t.server)
      .patch('/v1/inventory/1')
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'application/json')
      .send(text);
  const changeCount = async () =>
    Number((await dataSource.query(`SELECT COUNT(*) AS n FROM inventory_changes`))[0].n);
  const nothingChanged = async () => {
    const rows = await dataSource.query(`SELECT quantity FROM pets ORDER BY id`);
    expect(rows.map((row: { quantity: number }) => Number(row.quantity))).toEqual([5, 2]);
    expect(await changeCount()).toBe(seededChanges);
  };
  const refused = (res: request.Response, what: string) => {
    expect(res.status, what).toBe(400);
    expect(res.body.code, what).toBe('validation_failed');
  };

  it('should refuse an array where a batch line belongs, naming the line', async () => {
    for (const text of ['{"changes":[[]]}', '{"changes":[[{"petId":1,"delta":1}]]}']) {
      const res = await post('/v1/inventory/batch', text);
      refused(res, text);
      expect(res.body.message).toMatch(/^line 1 must be an object/);
    }
    const second = await post('/v1/inventory/batch', '{"changes":[{"petId":1,"delta":1},[]]}');
    expect(second.body.message).toMatch(/^line 2 must be an object/);
    await nothingChanged();
  });

  it('should refuse reserved keys inside a batch line as at the top level', async () => {
    for (const reserved of ['__proto__', 'constructor', 'prototype', 'toString']) {
      const text = `{"changes":[{"petId":1,"delta":1,"${reserved}":{"x":1}}]}`;
      const res = await post('/v1/inventory/batch', text);
      refused(res, text);
      expect(res.body.message).toBe(`line 1: property ${reserved} should not exist`);
    }
    await nothingChanged();
  });

  it('should name the line that sends both quantity and delta, counting from 1', async () => {
    const res = await post(
      '/v1/inventory/batch',
      '{"changes":[{"petId":1,"delta":1},{"petId":2,"quantity":1,"delta":1}]}',
    );
    refused(res, 'both');
    expect(res.body.message).toBe('line 2: exactly one of quantity and delta is required');
  });

  it('should refuse NUL and other control characters in text fields, on every write', async () => {
    for (const char of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085']) {
      const reference = JSON.stringify(`po${char}1`);
      refused(await patch(`{"quantity":3,"reference":${reference}}`), 'PATCH');
      refused(
        await post('/v1/inventory/1/adjustments', `{"delta":1,"reference":${reference}}`),
        'adjustment',
      );
      const res = await post(
        '/v1/inventory/batch',
        `{"changes":[{"petId":1,"delta":1,"reference":${reference}}]}`,
      );
      refused(res, 'batch');
      expect(res.body.message).toMatch(/^line 1: reference must not contain control characters/);
    }
    await nothingChanged();
    // Printable text beyond ASCII stays allowed.
    await patch('{"quantity":3,"reference":"Bon de commande n° 7 — 🐶"}').expect(200);
  });

  it('should answer every nested or mistyped batch body with 400 and change nothing', async () => {
    const scalar = fc.oneof(
      fc.integer(),
      fc.double(),
      fc.string(),
      fc.boolean(),
      fc.constant(null),
    );
    const junk = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        scalar,
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(
          fc.constantFrom('petId', 'delta', 'quantity', 'reference', '__proto__', 'x'),
          tie('value'),
          { maxKeys: 3 },
        ),
      ),
    })).value;
    // A line whose one field at least is of the wrong type, or that is not an object at all.
    const badLine = fc.oneof(
      junk.filter((value) => typeof value !== 'object' || value === null || Array.isArray(value)),
      fc
        .record({
          petId: fc.oneof(fc.constant(1), junk),
          delta: fc.oneof(junk, fc.constant(0)),
          reference: fc.oneof(junk, fc.constant('ok')),
        })
        .filter(
          (line) =>
            typeof line.delta !== 'number' || line.delta === 0 || !Number.isInteger(line.delta),
        ),
    );
    const body = fc.oneof(
      fc.record({ changes: fc.array(badLine, { minLength: 1, maxLength: 4 }) }),
      fc.record({
        changes: fc.tuple(fc.constant({ petId: 1, delta: 1 }), badLine).map(([a, b]) => [a, b]),
      }),
      fc.record({ changes: junk.filter((value) => !Array.isArray(value)) }),
    );
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const text = JSON.stringify(value);
        const res = await post('/v1/inventory/batch', text);
        refused(res, text);
      }),
      { numRuns: 150 },
    );
    await nothingChanged();
  });
});
