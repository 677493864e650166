import { describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../src/index.js';
import { FakeClock, errorBody, json, scriptedFetch } from './support/fake-api.js';

const BASE = 'https://api.example.test/v1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function setup(replies: Parameters<typeof scriptedFetch>[0]) {
  const clock = new FakeClock();
  const { fetch, requests } = scriptedFetch(replies);
  const client = createClient({
    baseUrl: BASE,
    apiKey: 'pk_test_secret',
    fetch,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
  });
  return { client, requests };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

describe('inventory.adjust and inventory.batch', () => {
  it('should POST the adjustment with a fresh Idempotency-Key and answer the item with its ETag', async () => {
    const { client, requests } = setup([
      json(200, '{"petId":9007199254740993,"quantity":3,"status":"available"}', { etag: '"e1"' }),
      json(200, { petId: 1, quantity: 4, status: 'available' }),
    ]);
    const item = await client.inventory.adjust(9007199254740993n, -1, {
      reason: 'sold',
      reference: 'order-9',
    });
    expect(item).toEqual({ petId: 9007199254740993n, quantity: 3, status: 'available' });
    expect(item.etag).toBe('"e1"');
    await client.inventory.adjust(1n, 2);
    expect(requests.map((r) => [r.method, r.url, r.body])).toEqual([
      [
        'POST',
        `${BASE}/inventory/9007199254740993/adjustments`,
        '{"delta":-1,"reason":"sold","reference":"order-9"}',
      ],
      ['POST', `${BASE}/inventory/1/adjustments`, '{"delta":2}'],
    ]);
    const [first, second] = requests.map((r) => r.headers['idempotency-key']);
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(second).not.toBe(first);
  });

  it('should retry a lost or failed adjustment with the same Idempotency-Key', async () => {
    const { client, requests } = setup([
      new TypeError('fetch failed'),
      errorBody(500, 'internal_error'),
      errorBody(409, 'idempotency_key_in_use'),
      json(200, { petId: 1, quantity: 4, status: 'available' }, { 'idempotent-replayed': 'true' }),
    ]);
    await client.inventory.adjust(1n, -1);
    expect(requests).toHaveLength(4);
    expect(new Set(requests.map((r) => r.headers['idempotency-key'])).size).toBe(1);
  });

  it('should not retry a refusal: insufficient stock or a reused key', async () => {
    const { client, requests } = setup([
      errorBody(409, 'insufficient_stock'),
      errorBody(422, 'idempotency_key_reused'),
    ]);
    const refused = await failure(client.inventory.adjust(1n, -9));
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 409, code: 'insufficient_stock' });
    expect(await failure(client.inventory.adjust(1n, -9))).toMatchObject({
      status: 422,
      code: 'idempotency_key_reused',
    });
    expect(requests).toHaveLength(2);
  });

  it('should send a batch with exact petIds and answer its items, retrying with one key', async () => {
    const { client, requests } = setup([
      new TypeError('socket hang up'),
      json(
        200,
        '{"items":[{"petId":1,"quantity":0,"status":"sold"},{"petId":9007199254740993,"quantity":7,"status":"available"}]}',
      ),
    ]);
    const items = await client.inventory.batch([
      { petId: 1n, delta: -1, expectedQuantity: 1, reason: 'sold' },
      { petId: 9007199254740993n, quantity: 7 },
    ]);
    expect(items).toEqual([
      { petId: 1n, quantity: 0, status: 'sold' },
      { petId: 9007199254740993n, quantity: 7, status: 'available' },
    ]);
    expect(requests[0].body).toBe(
      '{"changes":[{"petId":1,"delta":-1,"expectedQuantity":1,"reason":"sold"},{"petId":"9007199254740993","quantity":7}]}',
    );
    expect(requests[1].body).toBe(requests[0].body);
    expect(requests[1].headers['idempotency-key']).toBe(requests[0].headers['idempotency-key']);
  });
});
