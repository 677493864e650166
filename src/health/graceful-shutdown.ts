import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiExpressAdapter } from '../platform/http/index.js';

@Injectable()
export class GracefulShutdown {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  get draining(): boolean {
    const adapter = this.adapterHost.httpAdapter;
    return adapter instanceof ApiExpressAdapter && adapter.draining;
  }
}
