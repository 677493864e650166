import { Module } from '@nestjs/common';
import { RequestObservers } from '../../platform/http/index.js';

export const ARRIVAL = Symbol('arrival');
let arrivals = 0;

export const ARRIVAL_REQUEST_FIELDS: readonly PropertyKey[] = [ARRIVAL];

/**
 * Requests are numbered as they arrive. Anything done after `arrivalsSoFar()` returned n is done
 * after every request numbered n or less arrived (within this process): a read made then sees
 * every write acknowledged before any of them was sent.
 */
export function arrivalsSoFar(): number {
  return arrivals;
}

/** The number of a request, given as it arrived; Infinity for one that was never numbered. */
export function arrivalOf(req: object): number {
  return (req as { [ARRIVAL]?: number })[ARRIVAL] ?? Infinity;
}

@Module({})
export class ArrivalsModule {
  constructor(observers: RequestObservers) {
    observers.add({
      started(req) {
        (req as { [ARRIVAL]?: number })[ARRIVAL] = ++arrivals;
      },
    });
  }
}
