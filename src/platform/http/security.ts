import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { AppConfig, ServerTimeouts } from '../../config/app-config.js';
import { answerClientErrors, type HeaderList } from './refusals.js';
import { escapeUndecodablePath } from './request-target.js';

export const CORS_EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'X-Request-Id',
  'ETag',
  'Deprecation',
  'Sunset',
  'Link',
  'X-Changes-Cursor',
];

const DOCS_PATH = /^\/docs(\/|$)/;

/**
 * The headers a helmet configuration sets, worked out once: they depend on nothing in the
 * request (no CSP nonces here), so helmet's middlewares need not run on every request.
 */
function fixedHeaders(
  middleware: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void,
): HeaderList {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string | number) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  let failure: unknown;
  middleware(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (err) => (failure = err),
  );
  if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

/**
 * The API only ever returns JSON, so its responses may load nothing and be framed by no one, and
 * they carry only the headers that act on a response that is not a document (OWASP REST Security
 * Cheat Sheet): HSTS, nosniff, frame denial, the CSP and Cross-Origin-Resource-Policy. Referrer,
 * opener, origin-cluster, DNS-prefetch, download, cross-domain and XSS-auditor policies govern
 * pages; they are sent with Swagger UI at /docs, which needs its own scripts, styles (some
 * inline), data: images and a fetch of the OpenAPI document, all from this origin.
 * `upgrade-insecure-requests` is left out of both: the service is often reached over plain
 * HTTP inside a network, where it would break /docs.
 */
const apiHeaders = fixedHeaders(
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  }),
);
const docsHeaders = fixedHeaders(
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        imgSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
      },
    },
    frameguard: { action: 'deny' },
  }),
);

export const securityHeaders: RequestHandler = (
  req: Request,
  res: Response,
  next: NextFunction,
) => {
  const headers = DOCS_PATH.test(req.path) ? docsHeaders : apiHeaders;
  for (let i = 0; i < headers.length; i++) res.setHeader(headers[i][0], headers[i][1]);
  next();
};

/**
 * Limits against slow and idle clients (slowloris). Node checks the header and request limits
 * only every `connectionsCheckingInterval`, read at `listen()`: set it often enough for them to hold.
 */
export function applyServerTimeouts(server: Server, timeouts: ServerTimeouts): void {
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  // A ServerOptions field that @types/node does not declare on Server; Node reads it at listen().
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    Math.max(50, Math.min(1000, Math.floor(timeouts.headersMs / 4)));
}

export function applySecurity(app: NestExpressApplication, config: AppConfig): void {
  app.disable('x-powered-by');
  app.use(securityHeaders);
  app.use(escapeUndecodablePath);
  const origins = config.http.corsOrigins;
  if (origins.length > 0) {
    app.enableCors({
      origin: origins.includes('*') ? '*' : origins,
      allowedHeaders: [
        'Authorization',
        'Content-Type',
        'If-Match',
        'If-None-Match',
        'X-Request-Id',
      ],
      exposedHeaders: CORS_EXPOSED_HEADERS,
      // Keys travel in Authorization, never in cookies, so credentialed requests are not needed.
      credentials: false,
      maxAge: 600,
    });
  }
  const server = app.getHttpServer() as Server;
  applyServerTimeouts(server, config.http.timeouts);
  answerClientErrors(server, apiHeaders);
}
