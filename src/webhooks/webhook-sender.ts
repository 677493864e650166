import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import {
  addressAllowed,
  BlockedAddressError,
  hostOf,
  parseWebhookUrl,
  safeLookup,
  WebhookUrlError,
} from './address-policy.js';
import type { AttemptOutcome } from './retry-policy.js';

export const MAX_RESPONSE_BYTES = 1024;

export interface SendResult {
  outcome: AttemptOutcome;
  status?: number;
  retryAfter?: string;
  error?: string;
  durationMs: number;
}

/** Its agent's `lookup` refuses blocked addresses, so the address checked is the one connected. */
export class WebhookSender {
  private readonly agent: http.Agent;
  private readonly url: URL;

  constructor(
    url: string,
    private readonly options: {
      timeoutMs: number;
      allowPrivate: boolean;
      allowLoopback?: boolean;
      allowHttp?: boolean;
    },
  ) {
    this.url = new URL(url);
    const agentOptions = {
      keepAlive: true,
      maxSockets: 1,
      lookup: safeLookup((address) => this.allowed(address)),
    };
    this.agent =
      this.url.protocol === 'https:' ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  }

  get target(): string {
    return this.url.href;
  }

  private allowed(address: string): boolean {
    const { allowPrivate, allowLoopback = false } = this.options;
    return addressAllowed({ allowPrivate, allowLoopback }, address);
  }

  private refusedUrl(): string | undefined {
    const { allowHttp = false, allowPrivate, allowLoopback = false } = this.options;
    try {
      parseWebhookUrl(this.url.href, { allowHttp, allowPrivate, allowLoopback });
      return undefined;
    } catch (err) {
      if (err instanceof WebhookUrlError) return `refused URL: ${err.message}`;
      throw err;
    }
  }

  close(): void {
    this.agent.destroy();
  }

  send(body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    // Checked at every delivery: the settings may have changed since (http no longer allowed).
    const refused = this.refusedUrl();
    if (refused) return Promise.resolve({ outcome: 'blocked', error: refused, durationMs: 0 });
    const host = hostOf(this.url);
    // An IP literal never reaches `lookup`.
    if (isIP(host) && !this.allowed(host))
      return Promise.resolve({
        outcome: 'blocked',
        error: `blocked address: ${new BlockedAddressError(host, [host]).message}`,
        durationMs: 0,
      });
    return new Promise((resolve) => {
      let settled = false;
      const onAbort = () => {
        finish({ outcome: 'connection_error', error: 'aborted' });
        request.destroy();
      };
      const finish = (result: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve({ ...result, durationMs: elapsed() });
      };
      const request = (this.url.protocol === 'https:' ? https : http).request(this.url, {
        method: 'POST',
        agent: this.agent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'petstore-webhooks/1',
        },
      });
      const timer = setTimeout(() => {
        finish({ outcome: 'timeout', error: `no answer within ${this.options.timeoutMs} ms` });
        request.destroy();
      }, this.options.timeoutMs);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      request.on('error', (err: NodeJS.ErrnoException) => {
        const blocked = err.code === 'EWEBHOOKBLOCKED';
        finish({
          outcome: blocked ? 'blocked' : 'connection_error',
          error: blocked
            ? `blocked address: ${err.message}`
            : (err.code ?? err.message).slice(0, 200),
        });
      });
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const ok = status >= 200 && status < 300;
          const text = Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
          finish({
            outcome: ok ? 'delivered' : 'http_error',
            status,
            retryAfter: response.headers['retry-after'],
            error: ok ? undefined : `HTTP ${status}${text ? `: ${text}` : ''}`,
          });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_RESPONSE_BYTES) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
      });
      request.end(body);
    });
  }
}
