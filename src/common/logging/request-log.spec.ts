import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { RequestObservers } from '../../platform/http/index.js';
import { requestLog } from './request-log.js';

const KEY = 'pk_live_0123456789ABCDEFGHIJabcdefghij0123456789';

function logger(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level }, stream), lines };
}

function exchange(url: string, headers: Record<string, string> = {}) {
  const res = Object.assign(new EventEmitter(), {
    statusCode: 200,
    writableFinished: true,
    headers: {} as Record<string, string>,
    setHeader(name: string, value: string) {
      this.headers[name] = value;
    },
  });
  const req = {
    method: 'GET',
    url,
    originalUrl: url,
    ip: '127.0.0.1',
    headers,
  } as unknown as Request;
  return { req, res, response: res as unknown as Response };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

function middleware(log: ReturnType<typeof logger>['log']) {
  const observers = new RequestObservers();
  observers.add(requestLog(log));
  return observers.middleware;
}

describe('request log', () => {
  it('should give every request an id and log one line when its response is done', async () => {
    const { log, lines } = logger('info');
    const { req, res, response } = exchange(`/v1/inventory?api_key=${KEY}`, {
      'x-request-id': 'trace-1',
      authorization: `Bearer ${KEY}`,
    });
    let nexts = 0;
    middleware(log)(req, response, (() => nexts++) as NextFunction);
    expect(nexts).toBe(1);
    expect(res.headers['X-Request-Id']).toBe('trace-1');
    expect(lines).toHaveLength(0);
    (req as Request & { identity?: unknown }).identity = { kind: 'key', principal: { keyId: 7 } };
    res.statusCode = 404;
    res.emit('close');
    await flush();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request completed',
      reqId: 'trace-1',
      keyId: 7,
      req: {
        method: 'GET',
        url: '/v1/inventory?api_key=pk_live_0123…[redacted]',
        remoteAddress: '127.0.0.1',
      },
      res: { statusCode: 404 },
    });
    expect(lines[0].req).not.toHaveProperty('headers');
    expect(JSON.stringify(lines)).not.toContain(KEY.slice(12));
  });

  it('should show headers, credentials redacted, at debug, and mark an abandoned response', async () => {
    const { log, lines } = logger('debug');
    const { req, res, response } = exchange('/v1/inventory', {
      authorization: `Bearer ${KEY}`,
      'user-agent': KEY,
    });
    middleware(log)(req, response, (() => {}) as NextFunction);
    res.writableFinished = false;
    res.emit('close');
    await flush();
    expect(lines[0]).toMatchObject({
      req: { headers: { authorization: '[redacted]', 'user-agent': 'pk_live_0123…[redacted]' } },
      res: { aborted: true },
    });
    expect(JSON.stringify(lines)).not.toContain(KEY.slice(12));
  });

  it('should log nothing for health probes, nor anything at warn, yet still give each an id', async () => {
    for (const [level, url] of [
      ['info', '/health/ready'],
      ['warn', '/v1/inventory'],
    ]) {
      const { log, lines } = logger(level);
      const { req, res, response } = exchange(url);
      middleware(log)(req, response, (() => {}) as NextFunction);
      expect(res.headers['X-Request-Id']).toMatch(/^[0-9a-f-]{36}$/);
      res.emit('close');
      await flush();
      expect(lines).toHaveLength(0);
    }
  });
});
