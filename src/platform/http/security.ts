import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
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

// Worked out once: they depend on nothing in the request (no CSP nonces).
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
 * JSON responses carry only the headers that act on a non-document (OWASP REST Security Cheat
 * Sheet); page policies go with Swagger UI at /docs. `upgrade-insecure-requests` is left out:
 * plain HTTP inside a network would break /docs.
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

/** `http.createServer` options for the configured timeouts. */
export function serverTimeouts(timeouts: ServerTimeouts): ServerOptions {
  return {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // Node checks the header and request limits only this often (slowloris); 30 s by default.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(timeouts.headersMs / 4))),
  };
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
  answerClientErrors(app.getHttpServer() as Server, apiHeaders);
}
