import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import type { ServerTimeouts } from '../../config/app-config.js';
import { ConnectionDrain, DrainableServer } from './connection-drain.js';
import { admitRequest } from './connections.js';
import { overrideResponseEnd } from './express-api.js';
import { serverTimeouts } from './security.js';

/**
 * Nest's Express adapter on an `http.Server` of its own: responses close in stages when their
 * request's body goes unread (connections.ts), and no request runs on a connection that has
 * given its last answer, and `app.close()` drains connections first (connection-drain.ts). Plain
 * HTTP only: HTTPS ends at the proxy.
 */
export class ApiExpressAdapter extends ExpressAdapter {
  private readonly drain = new ConnectionDrain();

  constructor(private readonly timeouts: ServerTimeouts) {
    super();
  }

  get draining(): boolean {
    return this.drain.draining;
  }

  // The hook Nest awaits first when the app closes, documented for entering a shutting-down state.
  override async beforeClose(): Promise<void> {
    const server = this.getHttpServer() as DrainableServer | undefined;
    if (server) await this.drain.drain(server);
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.forceCloseConnections || options.return503OnClosing) {
      throw new Error('ApiExpressAdapter serves plain HTTP and drains its connections itself');
    }
    const app = this.getInstance<Express>();
    overrideResponseEnd(app);
    this.httpServer = new DrainableServer(serverTimeouts(this.timeouts), (req, res) => {
      this.drain.track(res);
      if (admitRequest(req, res)) app(req, res);
    });
  }
}
