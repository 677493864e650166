export abstract class WebhookClock {
  abstract now(): number;
  abstract wait(ms: number, signal: AbortSignal): Promise<void>;
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
