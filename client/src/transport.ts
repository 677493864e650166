import { ApiError, HoldNotActiveError, NetworkError, TimeoutError, codeOf } from './errors.js';
import { parseJson } from './json.js';
import { Pacer, type Sleep } from './pacer.js';

export interface TransportOptions {
  /** The base address, ending in `/v1`. */
  baseUrl: string;
  apiKey?: string;
  /** Retries of one call after a failed attempt (network error, 5xx, 408, 429). Default 4. */
  maxRetries?: number;
  /** Overall deadline of one call, retries and waits included, in ms. Default 60 000. */
  timeoutMs?: number;
  /** First backoff step in ms (doubled per retry, with full jitter). Default 500. */
  backoffBaseMs?: number;
  /** Largest backoff step in ms. Default 30 000. */
  backoffMaxMs?: number;
  /** Hold requests back to stay within the rate limit (see Pacer). Default true. */
  pacing?: boolean;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Receives warnings (a deprecated operation); default `console.warn`. */
  onWarning?: (message: string) => void;
  fetch?: typeof fetch;
  /** Epoch ms; default `Date.now`. */
  now?: () => number;
  /** Waits `ms`, rejecting with the signal's reason when it aborts; default a timer. */
  sleep?: Sleep;
  /** In [0, 1); default `Math.random`, for the jitter. */
  random?: () => number;
}

export interface CallOptions {
  /** Cancels the call, including any wait between attempts. */
  signal?: AbortSignal;
}

export interface Request extends CallOptions {
  method: 'GET' | 'PATCH' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** false for an operation the service does not count against the rate limit: never held back. */
  counted?: boolean;
  /** A POST that applies once however often it is sent (confirming or releasing a hold): retried. */
  idempotent?: boolean;
}

export interface Answer<T> {
  data: T;
  headers: Headers;
  status: number;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']);

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Sends requests: authentication, exact JSON, errors, retries, backoff and pacing. */
export class Transport {
  private readonly base: string;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly pacer: Pacer | undefined;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  readonly warn: (message: string) => void;

  constructor(private readonly options: TransportOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
    this.pacer = options.pacing === false ? undefined : new Pacer(this.now, this.sleep);
    this.maxRetries = options.maxRetries ?? 4;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
    this.backoffMaxMs = options.backoffMaxMs ?? 30_000;
    this.warn = options.onWarning ?? ((message) => console.warn(message));
  }

  /** The address of `path`: relative to the base address, or a `Link` target (an absolute path or URL). */
  url(path: string, query: Request['query'] = {}): string {
    const url = /^[a-z][a-z0-9+.-]*:/i.test(path)
      ? new URL(path)
      : new URL(path.startsWith('/v1/') ? new URL(path, this.base).toString() : this.base + path);
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) url.searchParams.set(name, String(value));
    return url.toString();
  }

  /** The full backoff step before retry `attempt` (0-based): a wait is drawn uniformly below it. */
  backoffCeiling(attempt: number): number {
    return Math.min(this.backoffMaxMs, this.backoffBaseMs * 2 ** attempt);
  }

  async send<T>(request: Request): Promise<Answer<T>> {
    const { signal } = request;
    const deadline = this.now() + this.timeoutMs;
    // A POST sent with an Idempotency-Key is applied once however often it is sent.
    const idempotent =
      request.idempotent === true ||
      IDEMPOTENT.has(request.method) ||
      request.headers?.['idempotency-key'] !== undefined;
    const url = this.url(request.path, request.query);
    const pacer = request.counted === false ? undefined : this.pacer;
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      await pacer?.acquire(deadline, signal);
      let response: Response;
      let text: string;
      try {
        ({ response, text } = await this.attempt(url, request, deadline));
      } catch (err) {
        pacer?.release();
        if (!(err instanceof NetworkError) || !idempotent || attempt >= this.maxRetries) throw err;
        await this.backoff(attempt, deadline, signal, err);
        continue;
      }
      if (pacer) pacer.release(response.headers, response.status);
      else this.pacer?.observe(response.headers, response.status);
      if (response.ok) {
        const data = (text === '' ? undefined : parseJson(text)) as T;
        return { data, headers: response.headers, status: response.status };
      }
      const error = this.apiError(response, text);
      if (error.retryAfter !== undefined && (error.status === 429 || error.status === 503))
        this.pacer?.holdUntil(this.now() + error.retryAfter * 1000);
      if (!this.retryable(error, idempotent) || attempt >= this.maxRetries) throw error;
      if (error.retryAfter !== undefined) {
        const wait = error.retryAfter * 1000;
        if (this.now() + wait > deadline) throw error;
        await this.sleep(wait, signal);
      } else {
        await this.backoff(attempt, deadline, signal, error);
      }
    }
  }

  private retryable(error: ApiError, idempotent: boolean): boolean {
    // A 429 was refused before anything happened, and so was a 503 that says when to come back.
    if (error.status === 429) return true;
    if (error.status === 503 && error.retryAfter !== undefined) return true;
    // The first request with this Idempotency-Key is still running; its answer comes next time.
    if (error.code === 'idempotency_key_in_use') return true;
    return idempotent && (error.status >= 500 || error.status === 408);
  }

  /** Exponential backoff with full jitter; gives up with `cause` rather than wait past the deadline. */
  private async backoff(
    attempt: number,
    deadline: number,
    signal: AbortSignal | undefined,
    cause: Error,
  ): Promise<void> {
    const wait = Math.floor(this.random() * this.backoffCeiling(attempt));
    if (this.now() + wait >= deadline) throw cause;
    await this.sleep(wait, signal);
  }

  /** One request and its whole body, within what is left of the deadline. */
  private async attempt(
    url: string,
    request: Request,
    deadline: number,
  ): Promise<{ response: Response; text: string }> {
    const remaining = deadline - this.now();
    if (remaining <= 0) throw new TimeoutError(`No answer within ${this.timeoutMs} ms`);
    const controller = new AbortController();
    const onAbort = () => controller.abort(request.signal!.reason);
    request.signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, remaining);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.options.headers,
      ...request.headers,
    };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    try {
      const response = await this.fetch(url, {
        method: request.method,
        headers,
        body,
        signal: controller.signal,
      });
      return { response, text: await response.text() };
    } catch (err) {
      if (request.signal?.aborted) throw request.signal.reason;
      if (timedOut) throw new TimeoutError(`No answer within ${this.timeoutMs} ms`, { cause: err });
      const reason = err instanceof Error ? err.message : String(err);
      throw new NetworkError(`${request.method} ${url} failed: ${reason}`, { cause: err });
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
    }
  }

  private apiError(response: Response, text: string): ApiError {
    let body: { code?: unknown; message?: unknown; details?: unknown } = {};
    try {
      const parsed = text === '' ? undefined : parseJson(text);
      if (parsed !== null && typeof parsed === 'object') body = parsed;
    } catch {
      // Not JSON (a proxy's page): the status speaks for it.
    }
    const retryAfter = response.headers.get('retry-after');
    const code = codeOf(response.status, body.code);
    return new (code === 'hold_not_active' ? HoldNotActiveError : ApiError)({
      status: response.status,
      code,
      message:
        typeof body.message === 'string'
          ? body.message
          : `HTTP ${response.status} ${response.statusText}`.trim(),
      requestId: response.headers.get('x-request-id') ?? undefined,
      retryAfter: retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined,
      details: body.details,
    });
  }
}
