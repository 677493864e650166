import { createServer } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import type { ServerTimeouts } from '../../config/app-config.js';
import { admitRequest, closeUnreadBodies } from './connections.js';
import { serverTimeouts } from './security.js';

/**
 * Nest's Express adapter on an `http.Server` of its own: responses close in stages when their
 * request's body goes unread (connections.ts), and no request runs on a connection that has
 * given its last answer. Plain HTTP only: HTTPS ends at the proxy, and GracefulShutdown
 * drains connections itself.
 */
export class ApiExpressAdapter extends ExpressAdapter {
  constructor(private readonly timeouts: ServerTimeouts) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.forceCloseConnections || options.return503OnClosing) {
      throw new Error(
        'ApiExpressAdapter serves plain HTTP and leaves connection draining to GracefulShutdown',
      );
    }
    const app = this.getInstance<Express>();
    closeUnreadBodies(app);
    this.httpServer = createServer(serverTimeouts(this.timeouts), (req, res) => {
      if (admitRequest(req, res)) app(req, res);
    });
  }
}
