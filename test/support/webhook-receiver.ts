import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedMessage {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string };

/**
 * A local webhook receiver: records every request and answers what `answer` says (200 by
 * default). `waitFor(n)` resolves when n messages have arrived: an event, not a sleep.
 */
export class WebhookReceiver {
  readonly messages: ReceivedMessage[] = [];
  answer: (message: ReceivedMessage) => Answer = () => ({ status: 200 });
  private readonly events = new EventEmitter();
  private server: http.Server | undefined;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  /** Listens (again) on its port, or on a new one the first time. */
  async start(): Promise<void> {
    const server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const message = { path: req.url ?? '', headers: req.headers, body };
        this.messages.push(message);
        const answer = this.answer(message);
        res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
        this.events.emit('message');
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops listening and drops open connections, so the next attempt is refused. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  waitFor(count: number, timeoutMs = 20_000): Promise<void> {
    return this.waitUntil(() => this.messages.length >= count, timeoutMs, `${count} messages`);
  }

  /** Resolves once `holds()` is true, checked now and at each message. */
  waitUntil(holds: () => boolean, timeoutMs = 20_000, what = 'the condition'): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!holds()) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`receiver got ${this.messages.length} messages, not ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.events.off('message', check);
      };
      this.events.on('message', check);
      check();
    });
  }

  /** The change ids of the messages received, in arrival order, as exact text. */
  changeIds(): string[] {
    return this.messages.map((message) => /"data":\{"id":(\d+)/.exec(message.body)?.[1] ?? '?');
  }
}
