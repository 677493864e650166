import { hostname } from 'node:os';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { IdentifiedRequest } from '../../auth/principal.js';
import { clientAddress } from '../client-address.js';
import type { RequestObserver } from '../../platform/http/index.js';
import { maskApiKeys, redactHeaders } from './log-redaction.js';
import { currentTraceId } from '../../tracing/trace-context.js';
import { requestId } from './request-id.js';

type LoggedRequest = Request & IdentifiedRequest & { traceId?: string };

export interface LineOutput {
  writeRequestLine(line: string): void;
}

interface RequestEntry {
  reqId: string;
  traceId?: string;
  keyId?: number;
  req: {
    method: string;
    url: string;
    remoteAddress: string;
    headers?: Record<string, string | string[]>;
  };
  res: { statusCode: number; aborted?: true };
  responseTime: number;
}

const MESSAGE = 'request completed';

export function requestLog(logger: Logger, output: LineOutput): RequestObserver {
  const head = `{"level":${logger.levels.values.info},"time":`;
  const base = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  return {
    started(req, res) {
      req.id = requestId(req, res);
      (req as LoggedRequest).traceId = currentTraceId();
    },
    finished(req, res, elapsedMs) {
      if (!logger.isLevelEnabled('info') || req.url.startsWith('/health')) return;
      const withHeaders = logger.isLevelEnabled('debug');
      const logged = entry(req as LoggedRequest, res, elapsedMs, withHeaders);
      // Built directly without headers (docs/performance.md); the spec holds the two equal.
      if (withHeaders) logger.info(logged, MESSAGE);
      else output.writeRequestLine(`${head}${Date.now()}${base}${fields(logged)}`);
    },
  };
}

function entry(req: LoggedRequest, res: Response, ms: number, withHeaders: boolean): RequestEntry {
  const principal = req.principal;
  return {
    reqId: req.id,
    ...(req.traceId === undefined ? {} : { traceId: req.traceId }),
    ...(principal === undefined ? {} : { keyId: principal.keyId }),
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

function fields({ reqId, traceId, keyId, req, res, responseTime }: RequestEntry): string {
  const trace = traceId === undefined ? '' : `,"traceId":"${traceId}"`;
  const key = keyId === undefined ? '' : `,"keyId":${keyId}`;
  const aborted = res.aborted ? ',"aborted":true' : '';
  return (
    `,"reqId":${JSON.stringify(reqId)}${trace}${key},"req":{"method":${JSON.stringify(req.method)},` +
    `"url":${JSON.stringify(req.url)},"remoteAddress":${JSON.stringify(req.remoteAddress)}},` +
    `"res":{"statusCode":${res.statusCode}${aborted}},"responseTime":${responseTime},` +
    `"msg":"${MESSAGE}"}\n`
  );
}
