import { EventEmitter } from 'node:events';
import { vi } from 'vitest';
import type { WebhookClock } from '../../src/webhooks/webhook-clock.js';

export interface PendingWait {
  ms: number;
  /** Moves the clock on by `ms` and ends the wait. */
  release(): void;
}

/**
 * Drives a WebhookClock: time stands still except when a retry wait is released, and jitter is
 * always half its maximum (10%), so retry delays are exact.
 */
export class DrivenWebhookClock {
  time = Date.now();
  private readonly pending: PendingWait[] = [];
  private readonly events = new EventEmitter();

  install(clock: WebhookClock): void {
    vi.spyOn(clock, 'now').mockImplementation(() => this.time);
    vi.spyOn(clock, 'random').mockReturnValue(0.5);
    vi.spyOn(clock, 'wait').mockImplementation(
      (ms, signal) =>
        new Promise<void>((resolve) => {
          const wait: PendingWait = {
            ms,
            release: () => {
              this.time += ms;
              resolve();
            },
          };
          signal.addEventListener(
            'abort',
            () => {
              const index = this.pending.indexOf(wait);
              if (index >= 0) this.pending.splice(index, 1);
              resolve();
            },
            { once: true },
          );
          this.pending.push(wait);
          this.events.emit('wait');
        }),
    );
  }

  get waiting(): number {
    return this.pending.length;
  }

  /** The next retry wait the dispatcher starts (an event, not a sleep). */
  nextWait(timeoutMs = 20_000): Promise<PendingWait> {
    return new Promise((resolve, reject) => {
      const take = () => {
        const wait = this.pending.shift();
        if (!wait) return;
        cleanup();
        resolve(wait);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error('no retry wait started'));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.events.off('wait', take);
      };
      this.events.on('wait', take);
      take();
    });
  }
}
