import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { AppConfig } from '../config/app-config.js';
import { serverTimeouts } from '../platform/http/index.js';
import { MetricsService } from './metrics.service.js';

function sendError(res: ServerResponse, status: 404 | 500, code: string, message: string): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(JSON.stringify({ code, message, status }));
}

// Bound to METRICS_HOST (loopback by default), so only the monitoring network reaches it.
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsServer.name);
  private server?: Server;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { port } = this.config.metrics;
    if (!this.config.metrics.enabled || port === undefined) return;
    const server = createServer(
      serverTimeouts(this.config.http.timeouts),
      (req, res) => void this.handle(req, res),
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.metrics.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    const host = this.config.metrics.host.includes(':')
      ? `[${this.config.metrics.host}]`
      : this.config.metrics.host;
    this.logger.log(`Metrics on http://${host}:${this.port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      sendError(res, 404, 'not_found', `No route for ${req.method} ${path}`);
      return;
    }
    try {
      const body = await this.metrics.metrics();
      res.writeHead(200, {
        'Content-Type': Registry.PROMETHEUS_CONTENT_TYPE,
        'Cache-Control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      this.logger.error({ err }, 'Collecting metrics failed');
      sendError(res, 500, 'internal_error', 'Collecting metrics failed');
    }
  }
}
