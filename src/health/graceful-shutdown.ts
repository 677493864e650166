import type { Server as HttpServer, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

export const IDLE_GRACE_MS = 1000;
/** Requests still running after this are cut off, so that a stuck one cannot block a deploy. */
export const DRAIN_TIMEOUT_MS = 10_000;

// Nest runs destroy hooks before closing the server, and server.close() drops idle keep-alive
// connections at once, resetting a request just sent on one. So first stop accepting, answer with
// `Connection: close`, close idle connections after IDLE_GRACE_MS and wait for requests in flight.
@Injectable()
export class GracefulShutdown implements OnApplicationBootstrap {
  private readonly logger = new Logger(GracefulShutdown.name);
  private readonly inFlight = new Set<ServerResponse>();
  private drainingSince: number | undefined;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  onApplicationBootstrap(): void {
    const adapter = this.adapterHost.httpAdapter;
    const server = adapter.getHttpServer() as HttpServer | undefined;
    if (!server) return;
    server.prependListener('request', (_req, res: ServerResponse) => {
      if (this.draining) res.setHeader('Connection', 'close');
      this.inFlight.add(res);
      res.once('close', () => this.inFlight.delete(res));
    });
    // `beforeClose` is the adapter's hook that Nest awaits first when the app closes.
    const beforeClose = adapter.beforeClose.bind(adapter);
    adapter.beforeClose = async () => {
      beforeClose();
      await this.drain(server);
    };
  }

  private async drain(server: HttpServer): Promise<void> {
    if (!server.listening || this.draining) return;
    this.drainingSince = Date.now();
    for (const res of this.inFlight) {
      if (!res.headersSent) res.setHeader('Connection', 'close');
      else res.shouldKeepAlive = false;
    }
    this.logger.log(`Shutting down: draining ${this.inFlight.size} request(s) in flight`);
    // net.Server's close stops accepting but, unlike http.Server's, leaves open connections be.
    const closed = new Promise<void>((resolve) =>
      NetServer.prototype.close.call(server, () => resolve()),
    );
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
