import { Injectable } from '@nestjs/common';

/**
 * Tells listeners in this process that stock changes were just committed here, so the webhook
 * deliverer reads the feed at once instead of at its next poll. Other instances are not told:
 * they keep polling.
 */
@Injectable()
export class StockCommitted {
  private readonly listeners = new Set<() => void>();

  notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** Calls `listener` on each commit until the returned function is called. */
  listen(listener: () => void): () => void {
    const own = () => listener();
    this.listeners.add(own);
    return () => this.listeners.delete(own);
  }
}
