import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nextStatus, PET_STATUSES } from '../src/inventory/pet-status.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

describe('inventory (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    key = await t.createKey();
    await t.seed([
      { petId: 1n, name: 'Rex', status: 'available', quantity: 5 },
      { petId: 2n, name: 'Tom', status: 'pending', quantity: 2 },
      { petId: 3n, name: 'Kit', status: 'sold', quantity: 0 },
    ]);
  });

  const list = () => request(t.server).get('/v1/inventory').set('Authorization', `Bearer ${key}`);
  const patch = (id: string, body: unknown) =>
    request(t.server)
      .patch(`/v1/inventory/${id}`)
      .set('Authorization', `Bearer ${key}`)
      .send(body as object);

  describe('GET /v1/inventory', () => {
    it('should return 200 with every item as exactly {petId, quantity, status, available}', async () => {
      const res = await list()
        .expect(200)
        .expect('Content-Type', /^application\/json/);
      expect(res.body).toEqual([
        { petId: 1, quantity: 5, status: 'available', available: 5 },
        { petId: 2, quantity: 2, status: 'pending', available: 2 },
        { petId: 3, quantity: 0, status: 'sold', available: 0 },
      ]);
      for (const item of res.body)
        expect(Object.keys(item)).toEqual(['petId', 'quantity', 'status', 'available']);
    });

    it('should return an empty array for an empty store', async () => {
      await t.reset();
      key = await t.createKey();
      await list().expect(200, []);
    });

    it('should return 401 with the Error body without a key', async () => {
      const res = await request(t.server).get('/v1/inventory').expect(401);
      expect(res.body).toEqual({ code: 'unauthorized', message: expect.any(String), status: 401 });
    });
  });

  describe('PATCH /v1/inventory/{petId}', () => {
    it('should return 200 with the updated entry and store it', async () => {
      const res = await patch('1', { quantity: 9 }).expect(200);
      expect(res.body).toEqual({ petId: 1, quantity: 9, status: 'available', available: 9 });
      expect(Object.keys(res.body)).toEqual(['petId', 'quantity', 'status', 'available']);
      expect((await list()).body[0]).toEqual({
        petId: 1,
        quantity: 9,
        status: 'available',
        available: 9,
      });
    });

    it('should apply the status rule: 0 -> sold, sold + stock -> available, pending stays', async () => {
      expect((await patch('1', { quantity: 0 }).expect(200)).body.status).toBe('sold');
      expect((await patch('1', { quantity: 4 }).expect(200)).body.status).toBe('available');
      expect((await patch('2', { quantity: 7 }).expect(200)).body.status).toBe('pending');
      expect((await patch('2', { quantity: 0 }).expect(200)).body.status).toBe('sold');
      expect((await patch('2', { quantity: 1 }).expect(200)).body.status).toBe('available');
      expect((await patch('3', { quantity: 0 }).expect(200)).body.status).toBe('sold');
    });

    it('should agree with nextStatus for every status and quantity class', async () => {
      let id = 100n;
      for (const status of PET_STATUSES) {
        for (const quantity of [0, 1, 2_147_483_647]) {
          id += 1n;
          await t.seed([{ petId: id, name: null, status, quantity: status === 'sold' ? 0 : 3 }]);
          const res = await patch(id.toString(), { quantity }).expect(200);
          expect(res.body.status, `${status} -> ${quantity}`).toBe(nextStatus(status, quantity));
        }
      }
    });

    it('should accept application/merge-patch+json', async () => {
      await request(t.server)
        .patch('/v1/inventory/1')
        .set('Authorization', `Bearer ${key}`)
        .set('Content-Type', 'application/merge-patch+json')
        .send(JSON.stringify({ quantity: 3 }))
        .expect(200, { petId: 1, quantity: 3, status: 'available', available: 3 });
    });

    it('should return 404 not_found for a valid but unknown id', async () => {
      const res = await patch('42', { quantity: 1 }).expect(404);
      expect(res.body).toEqual({ code: 'not_found', message: 'No pet with id 42', status: 404 });
      await patch('9223372036854775807', { quantity: 1 }).expect(404);
    });

    it('should return 401 without a valid key and change nothing', async () => {
      await request(t.server).patch('/v1/inventory/1').send({ quantity: 0 }).expect(401);
      await request(t.server)
        .patch('/v1/inventory/1')
        .set('Authorization', 'Bearer pk_test_' + 'x'.repeat(40))
        .send({ quantity: 0 })
        .expect(401);
      expect((await list()).body[0].quantity).toBe(5);
    });

    it.each([
      ['a missing quantity', {}, 'quantity is required'],
      ['a negative quantity', { quantity: -1 }, 'quantity must be an integer from 0 to 2147483647'],
      [
        'a quantity above int32',
        { quantity: 2_147_483_648 },
        'quantity must be an integer from 0 to 2147483647',
      ],
      [
        'a fractional quantity',
        { quantity: 1.5 },
        'quantity must be an integer from 0 to 2147483647',
      ],
      ['a string quantity', { quantity: '5' }, 'quantity must be an integer from 0 to 2147483647'],
      ['a null quantity', { quantity: null }, 'quantity is required'],
      [
        'a boolean quantity',
        { quantity: true },
        'quantity must be an integer from 0 to 2147483647',
      ],
      ['an unknown field', { quantity: 1, colour: 'red' }, 'property colour should not exist'],
      ['an array body', [{ quantity: 1 }], 'Request body must be a JSON object'],
    ])(
      'should return 400 validation_failed for %s and change nothing',
      async (_name, body, message) => {
        const res = await patch('1', body).expect(400);
        expect(res.body).toEqual({ code: 'validation_failed', message, status: 400 });
        expect((await list()).body[0].quantity).toBe(5);
      },
    );

    it.each(['0', '-1', 'abc', '1.5', '9223372036854775808', '1e3', '%20'])(
      'should return 400 validation_failed for petId %s',
      async (id) => {
        const res = await patch(id, { quantity: 1 }).expect(400);
        expect(res.body).toEqual({
          code: 'validation_failed',
          message: 'petId must be an integer from 1 to 9223372036854775807',
          status: 400,
        });
      },
    );
  });

  describe('int64 ids', () => {
    it('should round-trip ids beyond 2^53 exactly in both directions', async () => {
      await t.seed([
        { petId: 9007199254740993n, name: null, status: 'available', quantity: 1 },
        { petId: 9223372036854775807n, name: null, status: 'available', quantity: 1 },
      ]);
      const patched = await patch('9007199254740993', { quantity: 8 }).expect(200);
      expect(patched.text).toBe(
        '{"petId":9007199254740993,"quantity":8,"status":"available","available":8}',
      );
      const max = await patch('9223372036854775807', { quantity: 2 }).expect(200);
      expect(max.text).toBe(
        '{"petId":9223372036854775807,"quantity":2,"status":"available","available":2}',
      );

      const listed = await list().expect(200);
      expect(listed.text).toContain(
        '{"petId":9007199254740993,"quantity":8,"status":"available","available":8}',
      );
      expect(listed.text).toContain(
        '{"petId":9223372036854775807,"quantity":2,"status":"available","available":2}',
      );
      // 9007199254740992 is what a double would have made of it.
      expect(listed.text).not.toContain('9007199254740992');
    });

    it('should keep neighbouring ids beyond 2^53 apart', async () => {
      await t.seed([
        { petId: 9007199254740992n, name: null, status: 'available', quantity: 1 },
        { petId: 9007199254740993n, name: null, status: 'available', quantity: 1 },
      ]);
      await patch('9007199254740993', { quantity: 0 }).expect(200);
      const listed = await list();
      expect(listed.text).toContain(
        '{"petId":9007199254740992,"quantity":1,"status":"available","available":1}',
      );
      expect(listed.text).toContain(
        '{"petId":9007199254740993,"quantity":0,"status":"sold","available":0}',
      );
    });
  });
});
