import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { ARRIVAL } from './request-observers.js';

/*
 * V8 gives an object a hidden class from the properties it has, in order; objects built alike
 * share one, and property access is fast in code that meets few. Express swaps the prototype
 * of every request and response, and then it, its router, our guards and Node's writeHead add
 * a dozen properties. With Node's own classes no two requests (nor responses) ended up with the
 * same hidden class (V8's %HaveSameMap): every property added after the swap made a new one, so
 * each request also allocated hidden classes, and code in Express, Nest and Node that reads
 * them met a new one every time. Built by these classes, requests and responses have those
 * properties from the start and all end with one hidden class: a `GET /v1/inventory` takes half
 * the CPU time and makes a third less garbage (README, Performance). Every field starts as what
 * reading it gave before (undefined, or the prototype's value), so no reader can tell the
 * difference. test/http-adapter.e2e-spec.ts fails when the pipeline adds a property not
 * declared here.
 */

/**
 * The symbol under which Express's router keeps the route a request matched. The router does
 * not export it, so it is taken from the router Express itself loads; should a version move it,
 * the request is only built without it (and test/http-adapter.e2e-spec.ts says so).
 */
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

/** A request with the fields Node, Express, its router and this service set on each one. */
export class ApiRequest extends IncomingMessage {
  constructor(socket: Socket) {
    super(socket);
    const fields = this as unknown as Record<PropertyKey, unknown>;
    // Express (app.handle, router), in the order they are set.
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
    // Ours: the arrival number, the request id, the caller, a PATCH's body.
    fields[ARRIVAL] = undefined;
    fields.id = undefined;
    fields.identity = undefined;
    fields.body = undefined;
  }
}

/** What Node passes a response's constructor besides the request (@types/node leaves it out). */
interface ResponseOptions {
  highWaterMark?: number;
  rejectNonStandardBodyWrites?: boolean;
}

/** A response with the fields Express and Node's `writeHead` set on each one. */
export class ApiResponse extends ServerResponse<ApiRequest> {
  constructor(req: ApiRequest, options?: ResponseOptions) {
    // @ts-expect-error @types/node declares only the request; Node's server passes these too.
    super(req, options);
    const fields = this as unknown as Record<string, unknown>;
    fields.locals = undefined;
    // ServerResponse.prototype holds 200 and undefined; every response sets its own.
    fields.statusCode = 200;
    fields.statusMessage = undefined;
  }
}

/**
 * Nest's Express adapter, serving plain HTTP through a server that builds ApiRequest and
 * ApiResponse. The options it would otherwise act on are not used by this service: HTTPS ends
 * at the proxy, and GracefulShutdown drains connections itself.
 */
export class ApiExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.forceCloseConnections || options.return503OnClosing) {
      throw new Error(
        'ApiExpressAdapter serves plain HTTP and leaves connection draining to GracefulShutdown',
      );
    }
    this.httpServer = createServer(
      { IncomingMessage: ApiRequest, ServerResponse: ApiResponse },
      this.getInstance(),
    );
  }
}
