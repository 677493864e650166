import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { RequestObservers } from '../../platform/http/index.js';
import { ArrivalsModule, arrivalOf, arrivalsSoFar } from './request-observers.js';

describe('ArrivalsModule', () => {
  it('should number requests as they arrive, and tell one that was never numbered', () => {
    const observers = new RequestObservers();
    new ArrivalsModule(observers);
    const before = arrivalsSoFar();
    const [a, b] = [{} as Request, {} as Request];
    const res = () => Object.assign(new EventEmitter(), { writableFinished: true });
    observers.middleware(a, res() as unknown as Response, (() => {}) as NextFunction);
    observers.middleware(b, res() as unknown as Response, (() => {}) as NextFunction);
    expect(arrivalOf(a)).toBe(before + 1);
    expect(arrivalOf(b)).toBe(before + 2);
    expect(arrivalsSoFar()).toBe(before + 2);
    expect(arrivalOf({})).toBe(Infinity);
  });
});
