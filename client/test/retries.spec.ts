import { describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError, TimeoutError, createClient } from '../src/index.js';
import type { ClientOptions } from '../src/index.js';
import { FakeClock, errorBody, json, scriptedFetch } from './support/fake-api.js';

const BASE = 'https://api.example.test/v1';

function setup(replies: Parameters<typeof scriptedFetch>[0], options: Partial<ClientOptions> = {}) {
  const clock = new FakeClock();
  const { fetch, requests } = scriptedFetch(replies);
  const client = createClient({
    baseUrl: BASE,
    apiKey: 'pk_test_secret',
    fetch,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    ...options,
  });
  return { clock, client, requests };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

describe('retries', () => {
  it('should wait exactly Retry-After seconds after a 429, then retry', async () => {
    const { clock, client, requests } = setup([
      errorBody(429, 'rate_limit_exceeded', { 'retry-after': '7' }),
      json(200, []),
    ]);
    await client.orders.list();
    expect(clock.sleeps).toEqual([7_000]);
    expect(requests).toHaveLength(2);
  });

  it('should wait Retry-After after a 503, for a PATCH too', async () => {
    const { clock, client, requests } = setup([
      errorBody(503, 'service_unavailable', { 'retry-after': '5' }),
      json(200, { petId: 1, quantity: 3, status: 'available' }),
    ]);
    const item = await client.inventory.update(1n, { quantity: 3 });
    expect(item).toEqual({ petId: 1n, quantity: 3, status: 'available' });
    expect(clock.sleeps).toEqual([5_000]);
    expect(requests.map((r) => [r.method, r.body])).toEqual([
      ['PATCH', '{"quantity":3}'],
      ['PATCH', '{"quantity":3}'],
    ]);
  });

  it('should back off exponentially with full jitter after 5xx answers', async () => {
    const { clock, client } = setup(
      [
        errorBody(500, 'internal_error'),
        errorBody(502, 'x'),
        errorBody(504, 'x'),
        new TypeError('fetch failed'),
        json(200, []),
      ],
      { random: () => 0.5, backoffBaseMs: 100 },
    );
    await client.orders.list();
    expect(clock.sleeps).toEqual([50, 100, 200, 400]);
  });

  it('should keep every jittered wait below its ceiling and the cap', async () => {
    for (const random of [0, 0.3, 0.999999]) {
      const replies = Array.from({ length: 6 }, () => errorBody(500, 'internal_error'));
      const { clock, client } = setup([...replies, json(200, [])], {
        random: () => random,
        maxRetries: 6,
        backoffBaseMs: 1_000,
        backoffMaxMs: 8_000,
      });
      await client.orders.list();
      const ceilings = [1_000, 2_000, 4_000, 8_000, 8_000, 8_000];
      expect(clock.sleeps).toHaveLength(6);
      clock.sleeps.forEach((wait, i) => {
        expect(wait).toBeGreaterThanOrEqual(0);
        expect(wait).toBeLessThan(ceilings[i]);
        expect(wait).toBe(Math.floor(random * ceilings[i]));
      });
    }
  });

  it('should give up after maxRetries with the last error', async () => {
    const { client, requests } = setup(
      Array.from({ length: 5 }, () => errorBody(500, 'internal_error', { 'x-request-id': 'r-1' })),
      { maxRetries: 2 },
    );
    const error = await failure(client.orders.list());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, code: 'internal_error', requestId: 'r-1' });
    expect(requests).toHaveLength(3);
  });

  it('should not retry an answer a retry cannot change', async () => {
    const { client, requests } = setup([errorBody(404, 'not_found', { 'x-request-id': 'req-42' })]);
    const error = await failure(client.pets.get(42n));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      code: 'not_found',
      message: 'not_found happened',
      requestId: 'req-42',
      retryAfter: undefined,
    });
    expect(requests).toHaveLength(1);
  });

  it('should report a failed connection as a NetworkError, after retrying it', async () => {
    const { client, requests } = setup(
      [new TypeError('fetch failed'), new TypeError('fetch failed'), new TypeError('fetch failed')],
      { maxRetries: 2 },
    );
    const error = await failure(client.rateLimit.get());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as NetworkError).cause).toBeInstanceOf(TypeError);
    expect(requests).toHaveLength(3);
  });

  it('should not wait past the deadline for Retry-After: it throws the 429 at once', async () => {
    const { clock, client, requests } = setup(
      [errorBody(429, 'rate_limit_exceeded', { 'retry-after': '30' })],
      { timeoutMs: 10_000 },
    );
    const error = await failure(client.orders.list());
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 30 });
    expect(clock.sleeps).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('should stop backing off once the deadline would pass', async () => {
    const { clock, client, requests } = setup(
      Array.from({ length: 10 }, () => errorBody(500, 'internal_error')),
      { timeoutMs: 3_000, backoffBaseMs: 1_000, random: () => 0.99, maxRetries: 10 },
    );
    const start = clock.now();
    const error = await failure(client.orders.list());
    expect(error).toMatchObject({ status: 500 });
    // 990 + 1980 ms fit in 3 s; the next wait (3960 ms) would not.
    expect(clock.sleeps).toEqual([990, 1980]);
    expect(requests).toHaveLength(3);
    expect(clock.now() - start).toBeLessThanOrEqual(3_000);
  });

  it('should end a request that gets no answer at the deadline with a TimeoutError', async () => {
    const client = createClient({
      baseUrl: BASE,
      timeoutMs: 50,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    });
    const error = await failure(client.orders.list());
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('should cancel a wait for Retry-After when the signal aborts', async () => {
    const { fetch } = scriptedFetch([
      errorBody(429, 'rate_limit_exceeded', { 'retry-after': '30' }),
    ]);
    vi.useFakeTimers();
    try {
      const client = createClient({ baseUrl: BASE, fetch });
      const controller = new AbortController();
      const pending = failure(client.orders.list({ signal: controller.signal }));
      await vi.advanceTimersByTimeAsync(20);
      controller.abort();
      const error = await pending;
      expect((error as Error).name).toBe('AbortError');
      // Ended by the abort: the 30 s wait's timer is gone, not fired.
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('should cancel a request in flight when the signal aborts', async () => {
    const controller = new AbortController();
    const client = createClient({
      baseUrl: BASE,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
          controller.abort(new Error('stop'));
        }),
    });
    const error = await failure(client.inventory.list({ signal: controller.signal }));
    expect(error).toEqual(new Error('stop'));
  });

  it('should not send anything once the signal has aborted', async () => {
    const { client, requests } = setup([json(200, [])]);
    const error = await failure(client.orders.list({ signal: AbortSignal.abort() }));
    expect((error as Error).name).toBe('AbortError');
    expect(requests).toHaveLength(0);
  });
});

describe('requests and answers', () => {
  it('should send the key and exact ids, and read ids as exact bigints', async () => {
    const { client, requests } = setup([
      json(
        200,
        '[{"id":9223372036854775807,"petId":9007199254740993,"quantity":2,"status":"placed","complete":false}]',
      ),
      json(200, '{"petId":9007199254740993,"quantity":7,"status":"available"}', {
        etag: '"v2"',
      }),
    ]);
    const orders = await client.orders.list();
    expect(orders).toEqual([
      {
        id: 9223372036854775807n,
        petId: 9007199254740993n,
        quantity: 2,
        status: 'placed',
        complete: false,
      },
    ]);
    const item = await client.inventory.update(
      9007199254740993n,
      { quantity: 7, reason: 'received', reference: 'PO-1' },
      { ifMatch: '"v1"' },
    );
    expect(item.petId).toBe(9007199254740993n);
    expect(item.etag).toBe('"v2"');
    expect(Object.keys(item)).toEqual(['petId', 'quantity', 'status']);
    expect(requests[0].headers.authorization).toBe('Bearer pk_test_secret');
    expect(requests[1]).toMatchObject({
      method: 'PATCH',
      url: `${BASE}/inventory/9007199254740993`,
      body: '{"quantity":7,"reason":"received","reference":"PO-1"}',
    });
    expect(requests[1].headers).toMatchObject({
      'if-match': '"v1"',
      'content-type': 'application/json',
    });
  });

  it('should give a 412 as an ApiError with the current item', async () => {
    const { client } = setup([
      json(
        412,
        '{"code":"precondition_failed","message":"stale","status":412,"details":{"current":{"petId":5,"quantity":1,"status":"pending"}}}',
      ),
    ]);
    const error = await failure(client.inventory.update(5n, { quantity: 2 }, { ifMatch: '"old"' }));
    expect(error).toMatchObject({ status: 412, code: 'precondition_failed' });
    expect((error as ApiError).details).toEqual({
      current: { petId: 5n, quantity: 1, status: 'pending' },
    });
  });

  it('should name the code from the status when the body is not an Error', async () => {
    const { client } = setup([new Response('<html>Bad gateway</html>', { status: 502 })], {
      maxRetries: 0,
    });
    const error = await failure(client.orders.list());
    expect(error).toMatchObject({ status: 502, code: 'service_unavailable' });
  });

  it('should warn once, with the sunset date, when pets.get is deprecated', async () => {
    const headers = {
      deprecation: '@1782777600',
      sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
      link: '<https://x/docs>; rel="deprecation"',
    };
    const onWarning = vi.fn();
    const { client } = setup(
      [
        json(200, { id: 1, name: 'Rex', status: 'available' }, headers),
        json(200, { id: 2, name: 'Tom', status: 'sold' }, headers),
      ],
      { onWarning },
    );
    expect(await client.pets.get(1n)).toEqual({ id: 1n, name: 'Rex', status: 'available' });
    await client.pets.get(2n);
    expect(onWarning).toHaveBeenCalledTimes(1);
    expect(onWarning.mock.calls[0][0]).toContain('2027-06-30');
  });

  it('should reject an id that is not a bigint', async () => {
    const { client } = setup([]);
    await expect(client.inventory.get(1 as unknown as bigint)).rejects.toThrow(TypeError);
  });
});

describe('change feed', () => {
  const change = (id: number) => ({
    id,
    petId: 1,
    previousQuantity: 1,
    quantity: 2,
    previousStatus: 'available',
    status: 'available',
    reason: null,
    reference: null,
    source: 'api',
    keyId: 3,
    requestId: 'r',
    changedAt: '2030-01-15T12:00:00.000Z',
  });
  const page = (ids: number[], next: string) =>
    json(200, ids.map(change), {
      link: `</v1/inventory/changes?after=${next}&limit=2>; rel="next"`,
    });

  it('should follow rel="next" until caught up, moving the cursor as each page ends', async () => {
    const { client, requests } = setup([page([1, 2], 'c2'), page([3], 'c3'), page([], 'c3')]);
    const feed = client.inventory.changes({ after: 'c0', limit: 2 });
    const seen: [bigint, string | undefined][] = [];
    for await (const c of feed) seen.push([c.id, feed.cursor]);
    expect(seen).toEqual([
      [1n, 'c0'],
      [2n, 'c2'],
      [3n, 'c3'],
    ]);
    expect(feed.cursor).toBe('c3');
    expect(requests.map((r) => r.url)).toEqual([
      `${BASE}/inventory/changes?after=c0&limit=2`,
      'https://api.example.test/v1/inventory/changes?after=c2&limit=2',
      'https://api.example.test/v1/inventory/changes?after=c3&limit=2',
    ]);
  });

  it('should keep the cursor at the start of a page the consumer left early', async () => {
    const { client } = setup([page([1, 2], 'c2')]);
    const feed = client.inventory.changes();
    for await (const c of feed) {
      expect(c.id).toBe(1n);
      break;
    }
    expect(feed.cursor).toBeUndefined();
  });

  it("should read one pet's history from its own feed, page by page", async () => {
    const { client, requests } = setup([page([4], 'h1')]);
    const feed = client.inventory.history(9223372036854775807n, { limit: 2 });
    const first = await feed.nextPage();
    expect(first.changes.map((c) => c.keyId)).toEqual([3n]);
    expect(first.next).toBe('h1');
    expect(feed.cursor).toBe('h1');
    expect(requests[0].url).toBe(`${BASE}/inventory/9223372036854775807/changes?limit=2`);
  });
});
