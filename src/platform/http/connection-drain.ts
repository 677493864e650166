import type { Server, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { Logger } from '@nestjs/common';

export const IDLE_GRACE_MS = 1000;
/** Requests still running after this are cut off, so that a stuck one cannot block a deploy. */
export const DRAIN_TIMEOUT_MS = 10_000;

function openConnections(server: Server): Promise<number> {
  return new Promise((resolve) => server.getConnections((err, count) => resolve(err ? 0 : count)));
}

// `server.close()` drops idle keep-alive connections at once, resetting a request just sent on
// one. So every answer first says `Connection: close`; only after IDLE_GRACE_MS does the server
// stop accepting and close what is idle, then it waits for requests in flight.
export class ConnectionDrain {
  private readonly logger = new Logger('GracefulShutdown');
  private readonly inFlight = new Set<ServerResponse>();
  private drainingSince: number | undefined;

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  track(res: ServerResponse): void {
    if (this.draining) res.setHeader('Connection', 'close');
    this.inFlight.add(res);
    res.once('close', () => this.inFlight.delete(res));
  }

  async drain(server: Server): Promise<void> {
    if (!server.listening || this.draining) return;
    this.drainingSince = Date.now();
    for (const res of this.inFlight) {
      if (!res.headersSent) res.setHeader('Connection', 'close');
      else res.shouldKeepAlive = false;
    }
    this.logger.log(`Shutting down: draining ${this.inFlight.size} request(s) in flight`);
    if ((await openConnections(server)) > 0) await delay(IDLE_GRACE_MS);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const force = setTimeout(() => {
      this.logger.warn(
        `Closing ${this.inFlight.size} request(s) still running after ${DRAIN_TIMEOUT_MS} ms`,
      );
      server.closeAllConnections();
    }, DRAIN_TIMEOUT_MS - IDLE_GRACE_MS);
    try {
      await closed;
    } finally {
      clearTimeout(force);
    }
    this.logger.log(`Drained in ${Date.now() - this.drainingSince} ms`);
  }
}
