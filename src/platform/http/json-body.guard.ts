import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import * as zlib from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import { json } from 'express';
import { isInteger, isSafeNumber, parse as parseLossless } from 'lossless-json';
import { ApiError, refusal } from '../../common/errors/api-error.js';
import { closeAfterAnswer, hasBody, METHODS_WITH_BODY } from './connections.js';
import { REQUEST_TIMEOUT_MESSAGE, watchBodyRead } from './refusals.js';

export const BODY_LIMIT_BYTES = 16 * 1024;
/** Deeper JSON would overflow the stack of recursive consumers such as class-transformer. */
export const BODY_MAX_DEPTH = 32;
const JSON_MEDIA_TYPES = new Set(['application/json', 'application/merge-patch+json']);
const UTF_8 = new Set(['utf-8', 'utf8']);
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;
const DECODED_ENCODINGS = new Set([
  'identity',
  'gzip',
  'deflate',
  'br',
  ...('createZstdDecompress' in zlib ? ['zstd'] : []),
]);

// JSON is UTF-8 (RFC 8259 §8.1); refused (415) before the size.
function readable(req: Request, contentType: string): boolean {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  return unsupportedCharset(contentType) === undefined && DECODED_ENCODINGS.has(encoding);
}

function unsupportedCharset(contentType: string): string | undefined {
  const charset = CHARSET.exec(contentType)?.[1].toLowerCase();
  return charset === undefined || UTF_8.has(charset) ? undefined : charset;
}

export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

// An integer of 16 digits or more may be beyond 2^53, where JSON.parse rounds it to another id.
const LONG_INTEGER = /[0-9]{16}/;
const longIntegerBodies = new WeakMap<object, Buffer>();

const parseJson: RequestHandler = json({
  limit: BODY_LIMIT_BYTES,
  strict: true,
  type: () => true,
  verify: (req, _res, buf) => {
    if (LONG_INTEGER.test(buf.toString('latin1'))) longIntegerBodies.set(req, buf);
  },
});

const exactNumber = (text: string): number | bigint =>
  isInteger(text) && !isSafeNumber(text) ? BigInt(text) : Number(text);

function readExactly(req: Request): void {
  const raw = longIntegerBodies.get(req);
  if (raw === undefined) return;
  req.body = parseLossless(raw.toString('utf8'), null, {
    parseNumber: exactNumber,
    onDuplicateKey: ({ newValue }) => newValue,
  });
}

function tooLarge(): ApiError {
  return refusal('payload_too_large', `Request body exceeds ${BODY_LIMIT_BYTES} bytes`);
}

/** One read per request, whoever asks first: the guard, or a route's rate-limit cost. */
const bodyReads = new WeakMap<Request, Promise<boolean>>();

export function readJsonBody(req: Request): Promise<boolean> {
  if (!METHODS_WITH_BODY.has(req.method) || !hasBody(req)) return Promise.resolve(true);
  let read = bodyReads.get(req);
  if (read === undefined) bodyReads.set(req, (read = readChecked(req, req.res!)));
  return read;
}

async function readChecked(req: Request, res: Response): Promise<boolean> {
  const contentType = req.headers['content-type'] ?? '';
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  if (!JSON_MEDIA_TYPES.has(mediaType)) {
    throw new ApiError(
      'unsupported_media_type',
      `Content-Type must be application/json or application/merge-patch+json${mediaType ? `, not ${mediaType}` : ''}`,
    );
  }
  const charset = unsupportedCharset(contentType);
  if (charset !== undefined) {
    throw new ApiError(
      'unsupported_media_type',
      `Charset "${charset.slice(0, 40)}" is not supported`,
    );
  }
  // The HTTP layer answered while an earlier guard ran (the body came too slowly).
  if (res.headersSent) throw refusal('request_timeout', REQUEST_TIMEOUT_MESSAGE);
  try {
    if (Number(req.headers['content-length']) > BODY_LIMIT_BYTES && readable(req, contentType))
      throw tooLarge();
    await readBody(req, res);
    readExactly(req);
  } catch (err) {
    throw bodyError(err, req);
  }
  if (nestsDeeperThan(req.body, BODY_MAX_DEPTH)) {
    throw new ApiError(
      'validation_failed',
      `Request body nests deeper than ${BODY_MAX_DEPTH} levels`,
    );
  }
  return true;
}

// Refused once past the limit, whatever it inflates to: body-parser reads a refused body whole.
function readBody(req: Request, res: Response): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let received = 0;
    let settled = false;
    let unwatch = (): void => undefined;
    const count = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > BODY_LIMIT_BYTES) settle(tooLarge());
    };
    const settle = (err?: unknown): void => {
      if (settled) return;
      settled = true;
      req.off('data', count);
      unwatch();
      if (err) reject(err);
      else resolve();
    };
    unwatch = watchBodyRead(req.socket, settle);
    if (settled) return;
    req.on('data', count);
    parseJson(req, res, settle);
  });
}

function bodyError(err: unknown, req: Request): unknown {
  const type = typeof err === 'object' && err !== null && 'type' in err ? err.type : undefined;
  // Too large, too slow or broken: the rest goes unread, so the answer is the connection's last.
  if (err instanceof ApiError || type === 'entity.too.large') {
    closeAfterAnswer(req.socket);
    return err;
  }
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  // A decompression stream's own error (zlib's Z_DATA_ERROR, brotli's) carries no type.
  if (type === undefined && encoding !== 'identity') {
    return refusal(
      'validation_failed',
      `Request body is not valid ${encoding} data, as its Content-Encoding says it is`,
    );
  }
  return err;
}

// A guard, last: the limiter sees every request, and a refused caller never gets a body parsed.
@Injectable()
export class JsonBodyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    // Synchronous when there is nothing to read, so a GET does not wait a turn for this guard.
    if (!METHODS_WITH_BODY.has(req.method) || !hasBody(req)) return true;
    if (this.reflector.get<boolean>(IGNORES_BODY, context.getClass()) === true) return true;
    return readJsonBody(req);
  }
}

const IGNORES_BODY = 'petstore:ignoresBody';

export const IgnoresBody = (): ClassDecorator => SetMetadata(IGNORES_BODY, true);
