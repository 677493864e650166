import { describe, expect, it } from 'vitest';
import { ApiError, HoldNotActiveError, createClient } from '../src/index.js';
import { FakeClock, errorBody, json, scriptedFetch } from './support/fake-api.js';

const BASE = 'https://api.example.test/v1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const HOLD_ID = '3f0c2a9e-6b1d-4c8e-9a57-2d4b8f1e7c30';
const HOLD = {
  holdId: HOLD_ID,
  petId: 9007199254740993n,
  quantity: 1,
  status: 'active',
  reference: 'cart-1',
  createdAt: '2030-03-01T10:00:00.000Z',
  expiresAt: '2030-03-01T10:15:00.000Z',
  endedAt: null,
};
const HOLD_JSON = `{"holdId":"${HOLD_ID}","petId":9007199254740993,"quantity":1,"status":"active","reference":"cart-1","createdAt":"2030-03-01T10:00:00.000Z","expiresAt":"2030-03-01T10:15:00.000Z","endedAt":null}`;

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

describe('holds', () => {
  it('should create a hold with its own Idempotency-Key, the same on every retry', async () => {
    const { client, requests } = setup([
      new TypeError('fetch failed'),
      errorBody(500, 'internal_error'),
      json(201, HOLD_JSON),
      json(201, HOLD_JSON),
    ]);
    const hold = await client.holds.create(9007199254740993n, 1, {
      expiresIn: 900,
      reference: 'cart-1',
    });
    expect(hold).toEqual(HOLD);
    expect(requests.map((r) => [r.method, r.url, r.body])).toEqual(
      Array(3).fill([
        'POST',
        `${BASE}/inventory/9007199254740993/holds`,
        '{"quantity":1,"expiresIn":900,"reference":"cart-1"}',
      ]),
    );
    const keys = new Set(requests.map((r) => r.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(UUID);
    await client.holds.create(1n, 2);
    expect(requests[3].body).toBe('{"quantity":2}');
    expect(keys.has(requests[3].headers['idempotency-key'])).toBe(false);
  });

  it('should confirm, release, get and list, retrying a lost confirm', async () => {
    const item = '{"petId":9007199254740993,"quantity":0,"status":"sold","available":0}';
    const { client, requests } = setup([
      new TypeError('fetch failed'),
      json(200, `{"hold":${HOLD_JSON.replace('"active"', '"confirmed"')},"item":${item}}`),
      json(200, HOLD_JSON.replace('"active"', '"released"')),
      json(200, HOLD_JSON),
      json(200, `[${HOLD_JSON}]`),
    ]);
    const confirmed = await client.holds.confirm(HOLD_ID);
    expect(confirmed.hold.status).toBe('confirmed');
    expect(confirmed.item).toEqual({
      petId: 9007199254740993n,
      quantity: 0,
      status: 'sold',
      available: 0,
    });
    expect((await client.holds.release(HOLD_ID)).status).toBe('released');
    expect(await client.holds.get(HOLD_ID)).toEqual(HOLD);
    expect(await client.holds.list(9007199254740993n)).toEqual([HOLD]);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST ${BASE}/holds/${HOLD_ID}/confirm`,
      `POST ${BASE}/holds/${HOLD_ID}/confirm`,
      `POST ${BASE}/holds/${HOLD_ID}/release`,
      `GET ${BASE}/holds/${HOLD_ID}`,
      `GET ${BASE}/inventory/9007199254740993/holds`,
    ]);
  });

  it('should list every page, following the service\'s Link rel="next"', async () => {
    const second = HOLD_JSON.replace(HOLD_ID, HOLD_ID.replace('3f0c', '4a1d'));
    const next = '/v1/inventory/9007199254740993/holds?after=aDE.x&limit=1';
    const { client, requests } = setup([
      json(200, `[${HOLD_JSON}]`, { link: `<${next}>; rel="next"` }),
      json(200, `[${second}]`),
    ]);
    const holds = await client.holds.list(9007199254740993n);
    expect(holds.map((hold) => hold.holdId)).toEqual([HOLD_ID, JSON.parse(second).holdId]);
    expect(requests.map((r) => r.url)).toEqual([
      `${BASE}/inventory/9007199254740993/holds`,
      `https://api.example.test${next}`,
    ]);
  });

  it('should throw HoldNotActiveError, with the hold, for hold_not_active, and not retry it', async () => {
    const { client, requests } = setup([
      json(409, {
        code: 'hold_not_active',
        message: `Hold ${HOLD_ID} is expired: it cannot be confirmed`,
        status: 409,
        details: { current: { ...HOLD, petId: 1, status: 'expired' } },
      }),
      errorBody(409, 'insufficient_stock'),
    ]);
    const err = await failure(client.holds.confirm(HOLD_ID));
    expect(err).toBeInstanceOf(HoldNotActiveError);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, code: 'hold_not_active' });
    expect((err as HoldNotActiveError).hold).toMatchObject({ holdId: HOLD_ID, status: 'expired' });
    const stock = await failure(client.holds.create(1n, 5));
    expect(stock).not.toBeInstanceOf(HoldNotActiveError);
    expect(stock).toMatchObject({ code: 'insufficient_stock' });
    expect(requests).toHaveLength(2);
  });
});
