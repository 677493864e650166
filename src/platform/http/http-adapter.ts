import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import type { ServerTimeouts } from '../../config/app-config.js';
import { ConnectionDrain, DrainableServer } from './connection-drain.js';
import { admitRequest } from './connections.js';
import { overrideResponseEnd } from './express-api.js';
import { serverTimeouts } from './security.js';

/** Plain HTTP only: HTTPS ends at the proxy. */
export class ApiExpressAdapter extends ExpressAdapter {
  private readonly drain = new ConnectionDrain();

  constructor(private readonly timeouts: ServerTimeouts) {
    super();
  }

  get draining(): boolean {
    return this.drain.draining;
  }

  // Documented as the hook Nest awaits first on close, for entering a shutting-down state.
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
