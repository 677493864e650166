import { refusal } from '../common/errors/api-error.js';

export const LOOKUP_WAIT_MS = 1_000;
/** Beyond this a queue no one would leave in time: refused at once. */
export const MAX_LOOKUPS_WAITING = 256;
const POOL_SHARE = 0.25;

export const LOOKUPS_BUSY = refusal(
  'service_unavailable',
  'Too many API key lookups are waiting for the database; retry shortly',
  { 'Retry-After': '1' },
);

export function lookupPermitsFor(poolSize: number | undefined): number {
  return poolSize === undefined ? 1 : Math.max(1, Math.floor(poolSize * POOL_SHARE));
}

interface Waiter {
  grant(): void;
  timer: NodeJS.Timeout;
}

// Bounded in time and number, so a flood of key lookups leaves the pool to the operations.
export class LookupPermits {
  private free: number;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly size: number,
    private readonly maxWaitMs = LOOKUP_WAIT_MS,
    private readonly maxWaiting = MAX_LOOKUPS_WAITING,
  ) {
    this.free = size;
  }

  get inUse(): number {
    return this.size - this.free;
  }

  tryAcquire(): boolean {
    if (this.free === 0) return false;
    this.free -= 1;
    return true;
  }

  acquire(): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    if (this.waiting.length >= this.maxWaiting) return Promise.reject(LOOKUPS_BUSY);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(LOOKUPS_BUSY);
        }, this.maxWaitMs),
      };
      this.waiting.push(waiter);
    });
  }

  release(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.free += 1;
    else next.grant();
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }
}
