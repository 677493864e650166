import { describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../src/index.js';
import { FakeClock, FakeLimitedApi, errorBody, json, scriptedFetch } from './support/fake-api.js';

const BASE = 'https://api.example.test/v1';

function limitedClient(perMinute: number, banThreshold = 20) {
  const clock = new FakeClock();
  const api = new FakeLimitedApi(clock, perMinute, banThreshold);
  const client = createClient({
    baseUrl: BASE,
    apiKey: 'pk_test_x',
    fetch: api.fetch,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    timeoutMs: 10 * 60_000,
  });
  return { clock, api, client };
}

describe('rate-limit pacing', () => {
  it('should finish a loop of three times the quota without one refusal, waiting for each reset', async () => {
    const { clock, api, client } = limitedClient(60);
    const start = clock.now();
    for (let i = 0; i < 180; i++) await client.inventory.list();
    expect(api.served).toBe(180);
    expect(api.rejectedTotal).toBe(0);
    expect(api.bans).toBe(0);
    // 30 s were left of the first minute: the second 60 waited for 12:01, the last 60 for 12:02.
    expect(clock.now() - start).toBe(90_000);
    expect(clock.sleeps).toEqual([30_000, 60_000]);
  });

  it('should finish a burst of three times the quota sent at once, without one refusal', async () => {
    const { api, client } = limitedClient(60);
    const results = await Promise.all(Array.from({ length: 180 }, () => client.inventory.list()));
    expect(results).toHaveLength(180);
    expect(api.served).toBe(180);
    expect(api.rejectedTotal).toBe(0);
    expect(api.bans).toBe(0);
  });

  it('should stay unbanned with a quota of 3 and a ban threshold of 1', async () => {
    const { api, client } = limitedClient(3, 1);
    await Promise.all(Array.from({ length: 6 }, () => client.orders.list()));
    for (let i = 0; i < 6; i++) await client.orders.list();
    expect(api.served).toBe(12);
    expect(api.rejectedTotal).toBe(0);
  });

  it('should hold every request back after a 429 from a key another process drained', async () => {
    const { api, client } = limitedClient(10, 3);
    api.used = 10;
    api.window = Math.floor(new FakeClock().now() / 60_000);
    const results = await Promise.all(Array.from({ length: 10 }, () => client.inventory.list()));
    expect(results).toHaveLength(10);
    expect(api.rejectedTotal).toBe(1);
    expect(api.bans).toBe(0);
  });

  it('should refuse locally, with the retry time, when the quota returns only after the deadline', async () => {
    const clock = new FakeClock();
    const api = new FakeLimitedApi(clock, 2);
    const client = createClient({
      baseUrl: BASE,
      fetch: api.fetch,
      now: clock.now,
      sleep: clock.sleep,
      timeoutMs: 5_000,
    });
    await client.inventory.list();
    await client.inventory.list();
    const error = await client.inventory.list().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 30 });
    expect(api.rejectedTotal).toBe(0);
    expect(clock.sleeps).toEqual([]);
  });

  it('should not gate requests when the answers carry no rate-limit headers', async () => {
    const clock = new FakeClock();
    let inFlight = 0;
    let most = 0;
    const client = createClient({
      baseUrl: BASE,
      now: clock.now,
      sleep: clock.sleep,
      fetch: async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return json(200, []);
      },
    });
    await client.orders.list();
    await Promise.all(Array.from({ length: 5 }, () => client.orders.list()));
    expect(most).toBe(5);
  });

  it('should send one request alone while the budget is unknown', async () => {
    const clock = new FakeClock();
    const order: string[] = [];
    const { fetch } = scriptedFetch(
      Array.from({ length: 3 }, (_, i) => async () => {
        order.push(`start ${i}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(`end ${i}`);
        return json(200, [], {
          'x-ratelimit-remaining': String(50 - i),
          'x-ratelimit-reset': String(Math.ceil(clock.now() / 60_000) * 60),
        });
      }),
    );
    const client = createClient({ baseUrl: BASE, fetch, now: clock.now, sleep: clock.sleep });
    await Promise.all([client.orders.list(), client.orders.list(), client.orders.list()]);
    expect(order.slice(0, 2)).toEqual(['start 0', 'end 0']);
    expect(order.slice(2, 4)).toEqual(['start 1', 'start 2']);
  });

  it('should wait out a ban the service reports before sending again', async () => {
    const clock = new FakeClock();
    const { fetch, requests } = scriptedFetch([
      errorBody(429, 'api_key_banned', { 'retry-after': '600' }),
      json(200, []),
    ]);
    const client = createClient({
      baseUrl: BASE,
      fetch,
      now: clock.now,
      sleep: clock.sleep,
      timeoutMs: 15 * 60_000,
    });
    const start = clock.now();
    await client.orders.list();
    expect(requests.map((r) => r.at)).toHaveLength(2);
    expect(clock.now() - start).toBe(600_000);
  });
});
