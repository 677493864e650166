import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';

/*
 * Requests and responses built with every property Express, Node and the guards add, so they share
 * one V8 hidden class; each starts as reading it gave before, so no reader can tell the difference.
 * test/http-adapter.e2e-spec.ts fails when a property is declared neither here nor by a feature.
 */

// Express's router does not export this symbol; should a version move it, the request is built
// without it (and test/http-adapter.e2e-spec.ts says so).
function routerMatchedRoute(): symbol | undefined {
  try {
    const fromExpress = createRequire(createRequire(import.meta.url).resolve('express'));
    const symbols = fromExpress('router/lib/symbols.js') as { matchedRoute?: unknown };
    return typeof symbols.matchedRoute === 'symbol' ? symbols.matchedRoute : undefined;
  } catch {
    return undefined;
  }
}

const MATCHED_ROUTE = routerMatchedRoute();

const PLATFORM_REQUEST_FIELDS = new Set<PropertyKey>([
  'res',
  'next',
  'baseUrl',
  'originalUrl',
  '_parsedUrl',
  'params',
  'route',
  '_eventsCount',
  'body',
  ...(MATCHED_ROUTE ? [MATCHED_ROUTE] : []),
]);

export function requestClass(contributed: readonly PropertyKey[]): typeof IncomingMessage {
  const extra = contributed.filter((name) => !PLATFORM_REQUEST_FIELDS.has(name));
  return class ApiRequest extends IncomingMessage {
    constructor(socket: Socket) {
      super(socket);
      const fields = this as unknown as Record<PropertyKey, unknown>;
      fields.res = undefined;
      fields.next = undefined;
      fields.baseUrl = undefined;
      fields.originalUrl = undefined;
      fields._parsedUrl = undefined;
      fields.params = undefined;
      fields.route = undefined;
      if (MATCHED_ROUTE) fields[MATCHED_ROUTE] = undefined;
      // Node's Readable leaves EventEmitter's listener count unset until the first listener.
      fields._eventsCount = undefined;
      fields.body = undefined;
      for (let i = 0; i < extra.length; i++) fields[extra[i]] = undefined;
    }
  };
}

/** What Node passes a response's constructor besides the request (@types/node leaves it out). */
interface ResponseOptions {
  highWaterMark?: number;
  rejectNonStandardBodyWrites?: boolean;
}

export class ApiResponse extends ServerResponse {
  constructor(req: IncomingMessage, options?: ResponseOptions) {
    // @ts-expect-error @types/node declares only the request; Node's server passes these too.
    super(req, options);
    const fields = this as unknown as Record<string, unknown>;
    fields.locals = undefined;
    // ServerResponse.prototype holds 200 and undefined; every response sets its own.
    fields.statusCode = 200;
    fields.statusMessage = undefined;
  }
}

// Plain HTTP only: HTTPS ends at the proxy, and GracefulShutdown drains connections itself.
export class ApiExpressAdapter extends ExpressAdapter {
  readonly ApiRequest: typeof IncomingMessage;

  constructor(requestFields: readonly PropertyKey[]) {
    super();
    this.ApiRequest = requestClass(requestFields);
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.forceCloseConnections || options.return503OnClosing) {
      throw new Error(
        'ApiExpressAdapter serves plain HTTP and leaves connection draining to GracefulShutdown',
      );
    }
    this.httpServer = createServer(
      { IncomingMessage: this.ApiRequest, ServerResponse: ApiResponse },
      this.getInstance(),
    );
  }
}
