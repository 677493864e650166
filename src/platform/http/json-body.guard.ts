import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import { json } from 'express';
import getRawBody from 'raw-body';
import { ApiError } from '../errors/api-error.js';

export const BODY_LIMIT_BYTES = 16 * 1024;
/** Deeper JSON would overflow the stack of recursive consumers such as class-transformer. */
export const BODY_MAX_DEPTH = 32;
const JSON_MEDIA_TYPES = new Set(['application/json', 'application/merge-patch+json']);
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The declared length of a JSON body that body-parser would read just as raw-body does alone:
 * sent as it stands (no Content-Encoding), with a Content-Length within the limit. Undefined for
 * anything else. The media type is checked by the caller.
 */
function plainJsonLength(req: Request): number | undefined {
  const { 'content-encoding': coding, 'content-length': length } = req.headers;
  if (
    coding !== undefined ||
    length === undefined ||
    req.headers['transfer-encoding'] !== undefined
  )
    return undefined;
  const bytes = Number(length);
  return Number.isSafeInteger(bytes) && bytes <= BODY_LIMIT_BYTES ? bytes : undefined;
}

/** JSON's whitespace is space, tab, LF and CR (RFC 8259 §2). */
const FIRST_CHARACTER = /^[ \t\n\r]*([^ \t\n\r])/;

/** body-parser's strict JSON: an empty body is `{}`; anything but an object or an array is refused. */
function parseStrictJson(text: string): unknown {
  if (text.length === 0) return {};
  const first = FIRST_CHARACTER.exec(text)?.[1];
  if (first === '{' || first === '[') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Refused below, as body-parser refuses it.
    }
  }
  throw Object.assign(new Error('Request body is not valid JSON'), {
    status: 400,
    type: 'entity.parse.failed',
  });
}

/** Whether a parsed JSON value nests objects or arrays more than `max` levels deep (checked without recursion). */
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

/**
 * Reads JSON bodies as the last guard rather than as middleware: the limiter then sees (and
 * puts its headers on) every request, 413 and 415 included, and an unauthenticated or
 * rate-limited caller never gets a body parsed. A guard rather than an interceptor because one
 * global interceptor puts every request, GETs included, through an RxJS pipeline of its own
 * (README "Performance"); this lets a request through or refuses it, as a guard does.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  private readonly parseJson: RequestHandler = json({
    limit: BODY_LIMIT_BYTES,
    strict: true,
    type: () => true,
  });

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    // Synchronous when there is nothing to read, so a GET does not wait a turn for this guard.
    if (!METHODS_WITH_BODY.has(req.method) || !hasBody(req)) return true;
    return this.read(req, http.getResponse<Response>());
  }

  private async read(req: Request, res: Response): Promise<boolean> {
    const contentType = req.headers['content-type'] ?? '';
    const mediaType = contentType.split(';')[0].trim().toLowerCase();
    if (!JSON_MEDIA_TYPES.has(mediaType)) {
      throw new ApiError(
        'unsupported_media_type',
        `Content-Type must be application/json or application/merge-patch+json${mediaType ? `, not ${mediaType}` : ''}`,
      );
    }
    // A media type without parameters names no charset: UTF-8, JSON's own.
    const length = contentType.includes(';') ? undefined : plainJsonLength(req);
    // Most uploads are plain: for them body-parser's layers (content-type parsing, charset and
    // coding checks) cost about 4% of a PATCH and change nothing. Its reader, raw-body, still
    // reads them, with the same limit and decoder; everything else goes to body-parser.
    if (length !== undefined) {
      req.body = parseStrictJson(
        await getRawBody(req, { length, limit: BODY_LIMIT_BYTES, encoding: 'utf-8' }),
      );
    } else {
      await new Promise<void>((resolve, reject) =>
        this.parseJson(req, res, (err?: unknown) => (err ? reject(err) : resolve())),
      );
    }
    if (nestsDeeperThan(req.body, BODY_MAX_DEPTH)) {
      throw new ApiError(
        'validation_failed',
        `Request body nests deeper than ${BODY_MAX_DEPTH} levels`,
      );
    }
    return true;
  }
}
