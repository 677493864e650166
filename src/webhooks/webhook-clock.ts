/** Where deliveries read the time, wait out retries and draw jitter, so tests can drive them. */
export abstract class WebhookClock {
  abstract now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts. */
  abstract wait(ms: number, signal: AbortSignal): Promise<void>;
  /** In [0, 1). */
  abstract random(): number;
}

export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class SystemWebhookClock extends WebhookClock {
  now(): number {
    return Date.now();
  }

  wait(ms: number, signal: AbortSignal): Promise<void> {
    return abortableDelay(ms, signal);
  }

  random(): number {
    return Math.random();
  }
}
