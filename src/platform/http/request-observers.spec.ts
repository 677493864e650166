import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { RequestObservers } from './request-observers.js';

const exchange = () => ({
  req: {} as Request,
  res: Object.assign(new EventEmitter(), { writableFinished: true }),
});

describe('RequestObservers', () => {
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
