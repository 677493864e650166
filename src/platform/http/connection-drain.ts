import { Server, type ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';

export const IDLE_GRACE_MS = 1000;
export const DRAIN_TIMEOUT_MS = 10_000;

/** Node's close() closes idle connections at once, resetting a request just sent on one. */
export class DrainableServer extends Server {
  private keepIdle = false;

  stopAccepting(): Promise<void> {
    this.keepIdle = true;
    try {
      return new Promise((resolve) => this.close(() => resolve()));
    } finally {
      this.keepIdle = false;
    }
  }

  override closeIdleConnections(): void {
    if (!this.keepIdle) super.closeIdleConnections();
  }
}

// Nest closes the server only after its destroy hooks, so the first hook stops accepting.
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

  async drain(server: DrainableServer): Promise<void> {
    if (!server.listening || this.draining) return;
    this.drainingSince = Date.now();
    for (const res of this.inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    this.logger.log(`Shutting down: draining ${this.inFlight.size} request(s) in flight`);
    const closed = server.stopAccepting();
    const idle = setTimeout(() => server.closeIdleConnections(), IDLE_GRACE_MS);
    const force = setTimeout(() => {
      this.logger.warn(
        `Closing ${this.inFlight.size} request(s) still running after ${DRAIN_TIMEOUT_MS} ms`,
      );
      server.closeAllConnections();
    }, DRAIN_TIMEOUT_MS);
    try {
      await closed;
    } finally {
      clearTimeout(idle);
      clearTimeout(force);
    }
    this.logger.log(`Drained in ${Date.now() - this.drainingSince} ms`);
  }
}
