import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { IdentifiedRequest } from '../../auth/principal.js';
import { clientAddress } from '../client-address.js';
import type { RequestObserver } from '../../platform/http/index.js';
import { maskApiKeys, redactHeaders } from './log-redaction.js';
import { requestId } from './request-id.js';

type LoggedRequest = Request & IdentifiedRequest;

export const REQUEST_LOG_FIELDS: readonly PropertyKey[] = ['id'];

// Probes of `/health` are not logged.
export function requestLog(logger: Logger): RequestObserver {
  return {
    started(req, res) {
      req.id = requestId(req, res);
    },
    finished(req, res, elapsedMs) {
      if (!logger.isLevelEnabled('info') || req.url.startsWith('/health')) return;
      logger.info(
        entry(req as LoggedRequest, res, elapsedMs, logger.isLevelEnabled('debug')),
        'request completed',
      );
    },
  };
}

function entry(req: LoggedRequest, res: Response, ms: number, withHeaders: boolean): object {
  const identity = req.identity;
  return {
    reqId: req.id,
    ...(identity?.kind === 'key' ? { keyId: identity.principal.keyId } : {}),
    req: {
      method: req.method,
      url: maskApiKeys(req.originalUrl),
      remoteAddress: clientAddress(req),
      ...(withHeaders ? { headers: redactHeaders(req.headers) } : {}),
    },
    res: { statusCode: res.statusCode, ...(res.writableFinished ? {} : { aborted: true }) },
    responseTime: Math.round(ms * 1000) / 1000,
  };
}
