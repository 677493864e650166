import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookSender } from './webhook-sender.js';

describe('WebhookSender', () => {
  const seen: string[] = [];
  let respond: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    req.resume();
    req.on('end', () => respond(req, res));
  });
  let base: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = async (timeoutMs = 5000, path = '/hook') => {
    const sender = new WebhookSender(`${base}${path}`, {
      timeoutMs,
      allowHttp: true,
      allowPrivate: true,
    });
    try {
      return await sender.send('{}', { 'webhook-id': 'msg_1_1' });
    } finally {
      sender.close();
    }
  };

  it('should report a 2xx as delivered and anything else as an HTTP error', async () => {
    respond = (_, res) => res.writeHead(202).end('ok');
    expect(await send()).toMatchObject({ outcome: 'delivered', status: 202 });
    respond = (_, res) => res.writeHead(503, { 'retry-after': '7' }).end('busy');
    expect(await send()).toMatchObject({
      outcome: 'http_error',
      status: 503,
      retryAfter: '7',
      error: 'HTTP 503: busy',
    });
  });

  it('should not follow a redirect', async () => {
    seen.length = 0;
    respond = (_, res) => res.writeHead(301, { location: `${base}/moved` }).end();
    expect(await send()).toMatchObject({ outcome: 'http_error', status: 301 });
    expect(seen).toEqual(['/hook']);
  });

  it('should read at most 1 KiB of an answer', async () => {
    respond = (_, res) => res.writeHead(500).end('y'.repeat(100_000));
    const result = await send();
    expect(result.error).toBe(`HTTP 500: ${'y'.repeat(1024)}`);
  });

  it('should give up when no answer comes in time', async () => {
    respond = () => undefined;
    expect(await send(150)).toMatchObject({
      outcome: 'timeout',
      error: 'no answer within 150 ms',
    });
  });

  it('should refuse a loopback literal without the allowance, before connecting', async () => {
    seen.length = 0;
    const sender = new WebhookSender(`${base}/hook`, {
      timeoutMs: 1000,
      allowHttp: true,
      allowPrivate: false,
    });
    expect(await sender.send('{}', {})).toMatchObject({ outcome: 'blocked' });
    sender.close();
    expect(seen).toEqual([]);
  });

  it('should refuse plain http at delivery once http is no longer allowed, before connecting', async () => {
    seen.length = 0;
    const sender = new WebhookSender(`${base}/hook`, { timeoutMs: 1000, allowPrivate: true });
    expect(await sender.send('{}', {})).toEqual({
      outcome: 'blocked',
      error:
        'refused URL: URL must be https; http to this machine needs WEBHOOK_ALLOW_LOOPBACK=true',
      durationMs: 0,
    });
    sender.close();
    expect(seen).toEqual([]);
  });

  it('should report a refused connection', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const sender = new WebhookSender(`http://127.0.0.1:${port}/`, {
      timeoutMs: 1000,
      allowHttp: true,
      allowPrivate: true,
    });
    expect(await sender.send('{}', {})).toMatchObject({
      outcome: 'connection_error',
      error: 'ECONNREFUSED',
    });
    sender.close();
  });
});
