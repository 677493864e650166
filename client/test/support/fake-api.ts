/** A clock tests move by hand; `sleep` moves it instead of waiting. */
export class FakeClock {
  readonly sleeps: number[] = [];

  constructor(public time = Date.parse('2030-01-15T12:00:30.000Z')) {}

  now = (): number => this.time;

  sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    signal?.throwIfAborted();
    this.sleeps.push(ms);
    const until = this.time + ms;
    await Promise.resolve();
    this.time = Math.max(this.time, until);
    signal?.throwIfAborted();
  };
}

export interface Exchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  at: number;
}

type Reply = Response | Error | ((exchange: Exchange) => Response | Promise<Response>);

/** A `fetch` that answers from a script, one reply per request, recording each request. */
export function scriptedFetch(replies: Reply[]) {
  const requests: Exchange[] = [];
  const fetch = async (
    input: string | URL | Request,
    init: RequestInit = {},
  ): Promise<Response> => {
    const exchange: Exchange = {
      method: init.method ?? 'GET',
      url: String(input),
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === 'string' ? init.body : undefined,
      at: Date.now(),
    };
    requests.push(exchange);
    const reply = replies.shift();
    if (reply === undefined)
      throw new Error(`unscripted request ${exchange.method} ${exchange.url}`);
    if (reply instanceof Error) throw reply;
    return typeof reply === 'function' ? reply(exchange) : reply;
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function errorBody(status: number, code: string, headers: Record<string, string> = {}) {
  return json(status, { code, message: `${code} happened`, status }, headers);
}

/**
 * The service's limiter in miniature, on a FakeClock: a minute window aligned to the epoch,
 * 429 with Retry-After over it, a ban after `banThreshold` rejections in one window.
 */
export class FakeLimitedApi {
  used = 0;
  window = -1;
  rejected = 0;
  rejectedTotal = 0;
  bannedUntil = 0;
  bans = 0;
  served = 0;
  private windowRejected = 0;

  constructor(
    private readonly clock: FakeClock,
    readonly perMinute: number,
    private readonly banThreshold = 20,
    private readonly banMs = 600_000,
  ) {}

  fetch = async (): Promise<Response> => {
    await Promise.resolve();
    const now = this.clock.now();
    const index = Math.floor(now / 60_000);
    if (index !== this.window) {
      this.window = index;
      this.used = 0;
      this.windowRejected = 0;
    }
    const reset = Math.ceil(((index + 1) * 60_000) / 1000);
    const headers = (remaining: number, resetAt = reset) => ({
      'x-ratelimit-limit': String(this.perMinute),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(resetAt),
    });
    if (this.bannedUntil > now) {
      const resetAt = Math.ceil(this.bannedUntil / 1000);
      return errorBody(429, 'api_key_banned', {
        ...headers(0, resetAt),
        'retry-after': String(Math.max(1, resetAt - Math.floor(now / 1000))),
      });
    }
    if (this.used >= this.perMinute) {
      this.rejectedTotal += 1;
      if (++this.windowRejected > this.banThreshold) {
        this.windowRejected = 0;
        this.bans += 1;
        this.bannedUntil = now + this.banMs;
        return errorBody(429, 'api_key_banned', {
          ...headers(0, Math.ceil(this.bannedUntil / 1000)),
          'retry-after': String(this.banMs / 1000),
        });
      }
      return errorBody(429, 'rate_limit_exceeded', {
        ...headers(0),
        'retry-after': String(Math.max(1, Math.ceil(((index + 1) * 60_000 - now) / 1000))),
      });
    }
    this.used += 1;
    this.served += 1;
    return json(
      200,
      [{ petId: 1, quantity: 5, status: 'available' }],
      headers(this.perMinute - this.used),
    );
  };
}
