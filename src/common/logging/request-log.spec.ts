import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { RequestObservers } from '../../platform/http/index.js';
import { useTraceSource } from '../../tracing/trace-context.js';
import { requestLog } from './request-log.js';

const KEY = 'pk_live_0123456789ABCDEFGHIJabcdefghij0123456789';

function logger(level: string) {
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw.push(chunk.toString());
      done();
    },
  });
  return {
    log: pino({ level }, stream),
    // The request log writes its lines where the logger writes.
    output: { writeRequestLine: (line: string) => void raw.push(line) },
    raw,
    get lines() {
      return raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
  };
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

function middleware({ log, output }: ReturnType<typeof logger>) {
  const observers = new RequestObservers();
  observers.add(requestLog(log, output));
  return observers.middleware;
}

describe('request log', () => {
  it('should give every request an id and log one line when its response is done', async () => {
    const log = logger('info');
    const { req, res, response } = exchange(`/v1/inventory?api_key=${KEY}`, {
      'x-request-id': 'trace-1',
      authorization: `Bearer ${KEY}`,
    });
    let nexts = 0;
    middleware(log)(req, response, (() => nexts++) as NextFunction);
    expect(nexts).toBe(1);
    expect(res.headers['X-Request-Id']).toBe('trace-1');
    expect(log.lines).toHaveLength(0);
    (req as Request & { principal?: unknown }).principal = { keyId: 7 };
    res.statusCode = 404;
    res.emit('close');
    await flush();
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatchObject({
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
    expect(log.lines[0].req).not.toHaveProperty('headers');
    expect(log.raw.join('')).not.toContain(KEY.slice(12));
  });

  it('should show headers, credentials redacted, at debug, and mark an abandoned response', async () => {
    const log = logger('debug');
    const { req, res, response } = exchange('/v1/inventory', {
      authorization: `Bearer ${KEY}`,
      'user-agent': KEY,
    });
    middleware(log)(req, response, (() => {}) as NextFunction);
    res.writableFinished = false;
    res.emit('close');
    await flush();
    expect(log.lines[0]).toMatchObject({
      req: { headers: { authorization: '[redacted]', 'user-agent': 'pk_live_0123…[redacted]' } },
      res: { aborted: true },
    });
    expect(log.raw.join('')).not.toContain(KEY.slice(12));
  });

  it('should log nothing for health probes, nor anything at warn, yet still give each an id', async () => {
    for (const [level, url] of [
      ['info', '/health/ready'],
      ['warn', '/v1/inventory'],
    ]) {
      const log = logger(level);
      const { req, res, response } = exchange(url);
      middleware(log)(req, response, (() => {}) as NextFunction);
      expect(res.headers['X-Request-Id']).toMatch(/^[0-9a-f-]{36}$/);
      res.emit('close');
      await flush();
      expect(log.lines).toHaveLength(0);
    }
  });

  it('should write the trace id of the span active when the request arrived, when tracing is on', async () => {
    const log = logger('info');
    let active: string | undefined = '0af7651916cd43dd8448eb211c80319c';
    useTraceSource({ traceId: () => active, flush: () => Promise.resolve() });
    try {
      const { req, res, response } = exchange('/v1/inventory');
      middleware(log)(req, response, (() => {}) as NextFunction);
      active = undefined;
      res.emit('close');
      await flush();
      expect(log.lines[0]).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c' });
    } finally {
      useTraceSource(undefined);
    }
    const off = logger('info');
    const { req, res, response } = exchange('/v1/inventory');
    middleware(off)(req, response, (() => {}) as NextFunction);
    res.emit('close');
    await flush();
    expect(off.lines[0]).not.toHaveProperty('traceId');
  });

  it('should write, without headers, the very line pino writes for the same fields', async () => {
    const cases = [
      { url: '/v1/inventory/42', ip: '127.0.0.1', status: 200, key: 7, done: true, ms: 1.23456 },
      {
        url: '/v1/inventory',
        ip: '127.0.0.1',
        status: 200,
        done: true,
        ms: 2,
        trace: '4bf92f3577b34da6a3ce929d0e0e4736',
      },
      { url: '/v1/x?q="a\\b"&u=\u00fc\u2028\u0001', ip: '::1', status: 500, done: false, ms: 0 },
      { url: `/v1/${'\ud800'}?${'long/'.repeat(20)}`, ip: '10.0.0.1', status: 404, ms: 12 },
    ];
    for (const { url, ip, status, key, done, ms, trace } of cases) {
      const log = logger('info');
      const { req, res } = exchange(url, { 'x-request-id': 'trace-2' });
      Object.assign(req, { ip });
      const observer = requestLog(log.log, log.output);
      useTraceSource(trace ? { traceId: () => trace, flush: () => Promise.resolve() } : undefined);
      observer.started!(req, res as unknown as Response);
      useTraceSource(undefined);
      if (key !== undefined) (req as Request & { principal?: unknown }).principal = { keyId: key };
      res.statusCode = status;
      res.writableFinished = done ?? true;
      observer.finished!(req, res as unknown as Response, ms);
      log.log.info(
        {
          reqId: 'trace-2',
          ...(trace === undefined ? {} : { traceId: trace }),
          ...(key === undefined ? {} : { keyId: key }),
          req: { method: 'GET', url, remoteAddress: ip },
          res: { statusCode: status, ...(done === false ? { aborted: true } : {}) },
          responseTime: Math.round(ms * 1000) / 1000,
        },
        'request completed',
      );
      await flush();
      const [own, pinos] = log.raw.map((line) => line.replace(/"time":\d+/, '"time":0'));
      expect(own).toBe(pinos);
    }
  });
});
