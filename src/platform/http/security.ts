import type { Server, ServerOptions } from 'node:http';
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
  'Idempotent-Replayed',
];

const DOCS_PATH = /^\/docs(\/|$)/;

// OWASP REST; no upgrade-insecure-requests, as plain HTTP inside a network would break /docs.
const apiHelmet = helmet({
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
});
const docsHelmet = helmet({
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
});

export const securityHeaders: RequestHandler = (req: Request, res: Response, next: NextFunction) =>
  (DOCS_PATH.test(req.path) ? docsHelmet : apiHelmet)(req, res, next);

/** For answers written on the socket itself; test/hardening.e2e-spec.ts keeps the two equal. */
export const RAW_ANSWER_HEADERS: HeaderList = [
  ['Content-Security-Policy', "default-src 'none';frame-ancestors 'none'"],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
];

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
        'Idempotency-Key',
      ],
      exposedHeaders: CORS_EXPOSED_HEADERS,
      // Keys travel in Authorization, never in cookies, so credentialed requests are not needed.
      credentials: false,
      maxAge: 600,
    });
  }
  answerClientErrors(app.getHttpServer() as Server, RAW_ANSWER_HEADERS);
}
