import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { arrivalOf, arrivalsSoFar, RequestObservers } from './request-observers.js';

const exchange = () => ({
  req: {} as Request,
  res: Object.assign(new EventEmitter(), { writableFinished: true }),
});

describe('RequestObservers', () => {
  it('should number requests as they arrive, and tell one that never passed it', () => {
    const observers = new RequestObservers();
    const before = arrivalsSoFar();
    const [a, b] = [exchange(), exchange()];
    observers.middleware(a.req, a.res as unknown as Response, (() => {}) as NextFunction);
    observers.middleware(b.req, b.res as unknown as Response, (() => {}) as NextFunction);
    expect(arrivalOf(a.req)).toBe(before + 1);
    expect(arrivalOf(b.req)).toBe(before + 2);
    expect(arrivalsSoFar()).toBe(before + 2);
    expect(arrivalOf({})).toBe(Infinity);
  });

  it('should call every observer at the start, and once at the close with the time taken', () => {
    const observers = new RequestObservers();
    const calls: string[] = [];
    observers.add({
      started: () => calls.push('log start'),
      finished: (_req, _res, ms) => calls.push(`log ${ms >= 0}`),
    });
    observers.add({ finished: () => calls.push('metrics') });
    const { req, res } = exchange();
    let nexts = 0;
    observers.middleware(req, res as unknown as Response, (() => nexts++) as NextFunction);
    expect(calls).toEqual(['log start']);
    expect(nexts).toBe(1);
    res.emit('close');
    expect(calls).toEqual(['log start', 'log true', 'metrics']);
    expect(res.listenerCount('close')).toBe(1);
  });
});
