import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { OrdersImporter, parseOrdersFile } from '../../src/orders/orders.importer.js';
import { useRateLimitClock } from '../../test/support/manual-clock.js';
import { ApiError, NetworkError, createClient } from '../src/index.js';
import { startLiveServer, type LiveServer } from './support/live-server.js';

const SAFE_PLUS_TWO = 9007199254740993n;
const INT64_MAX = 9223372036854775807n;

describe('client against the running service (e2e)', () => {
  let server: LiveServer;
  const clock = useRateLimitClock(() => server);

  beforeAll(async () => {
    server = await startLiveServer({ RATE_LIMIT_BAN_THRESHOLD: '1' });
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    await server.reset();
    await server.seed([
      { petId: 1n, name: 'Rex', status: 'available', quantity: 5 },
      { petId: SAFE_PLUS_TWO, name: 'Tom', status: 'pending', quantity: 2 },
      { petId: INT64_MAX, name: 'Max', status: 'sold', quantity: 0 },
    ]);
  });

  const clientFor = async (keyOptions = {}, options = {}) =>
    createClient({
      baseUrl: server.baseUrl,
      apiKey: await server.createKey(keyOptions),
      ...options,
    });

  it('should list the inventory with int64 ids exact', async () => {
    const client = await clientFor();
    expect(await client.inventory.list()).toEqual([
      { petId: 1n, quantity: 5, status: 'available', available: 5 },
      { petId: SAFE_PLUS_TWO, quantity: 2, status: 'pending', available: 2 },
      { petId: INT64_MAX, quantity: 0, status: 'sold', available: 0 },
    ]);
  });

  it('should update the edge ids exactly and apply the status rule', async () => {
    const client = await clientFor();
    expect(await client.inventory.update(INT64_MAX, { quantity: 4 })).toEqual({
      petId: INT64_MAX,
      quantity: 4,
      status: 'available',
      available: 4,
    });
    expect(await client.inventory.update(SAFE_PLUS_TWO, { quantity: 0 })).toEqual({
      petId: SAFE_PLUS_TWO,
      quantity: 0,
      status: 'sold',
      available: 0,
    });
    const listing = await client.inventory.list();
    expect(listing.find((item) => item.petId === INT64_MAX)?.quantity).toBe(4);
  });

  it('should list orders with exact ids', async () => {
    await server.app.get(OrdersImporter).import(
      parseOrdersFile(`[
        {"id": 9223372036854775807, "petId": 9007199254740993, "quantity": 1, "status": "placed"}
      ]`),
    );
    const client = await clientFor();
    expect(await client.orders.list()).toEqual([
      { id: INT64_MAX, petId: SAFE_PLUS_TWO, quantity: 1, status: 'placed', complete: false },
    ]);
  });

  it('should read a pet through the deprecated operation, warning once with the sunset date', async () => {
    const onWarning = vi.fn();
    const client = await clientFor({}, { onWarning });
    expect(await client.pets.get(INT64_MAX)).toEqual({
      id: INT64_MAX,
      name: 'Max',
      status: 'sold',
    });
    await client.pets.get(1n);
    expect(onWarning).toHaveBeenCalledTimes(1);
    expect(onWarning.mock.calls[0][0]).toContain(
      server.config.pets.sunset.toISOString().slice(0, 10),
    );
  });

  it('should read the rate-limit status without spending quota', async () => {
    const client = await clientFor({ perMinute: 10 });
    await client.inventory.list();
    const first = await client.rateLimit.get();
    const second = await client.rateLimit.get();
    expect(first).toEqual(second);
    expect(first).toMatchObject({
      plan: 'free',
      windows: [
        { name: 'minute', limit: 10, remaining: 9 },
        { name: 'day', limit: 1000, remaining: 999 },
      ],
      bannedUntil: null,
    });
  });

  it('should throw ApiError with the code, message and request id', async () => {
    const client = await clientFor();
    const error = await client.inventory.update(424242n, { quantity: 1 }).catch((err) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', retryAfter: undefined });
    expect(error.requestId).toMatch(/\S/);
    const invalid = await client.inventory
      .update(1n, { quantity: -1 })
      .catch((err: unknown) => err);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_failed' });
    const anonymous = createClient({ baseUrl: server.baseUrl, apiKey: 'pk_test_nope' });
    expect(await anonymous.inventory.list().catch((err: unknown) => err)).toMatchObject({
      status: 401,
      code: 'unauthorized',
    });
  });

  it('should make 6 calls on a key limited to 3 a minute, all answered, with no 429 and no ban', async () => {
    const statuses: number[] = [];
    const client = await clientFor(
      { perMinute: 3 },
      {
        now: () => clock.now(),
        // The service's limiter reads the same manual clock: waiting moves it.
        sleep: async (ms: number) => clock.advance(ms),
        fetch: async (input: string | URL | Request, init?: RequestInit) => {
          const response = await fetch(input, init);
          statuses.push(response.status);
          return response;
        },
      },
    );
    const start = clock.now();
    for (let i = 0; i < 6; i++) await client.inventory.list();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    expect(clock.now() - start).toBe(30_000);
    const status = await client.rateLimit.get();
    expect(status).toMatchObject({ bannedUntil: null, windows: [{ remaining: 0 }, {}] });
    expect(clock.now() - start).toBe(30_000);
  });

  it('should report an unreachable service as a NetworkError', async () => {
    const client = createClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      maxRetries: 1,
      backoffBaseMs: 1,
    });
    await expect(client.orders.list()).rejects.toBeInstanceOf(NetworkError);
  });
});
