import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import { json } from 'express';
import type { Observable } from 'rxjs';
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
 * Reads JSON bodies after the guards rather than as middleware: the limiter then sees (and
 * puts its headers on) every request, 413 and 415 included, and an unauthenticated or
 * rate-limited caller never gets a body parsed.
 */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  private readonly parseJson: RequestHandler = json({ limit: BODY_LIMIT_BYTES, strict: true, type: () => true });

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    if (METHODS_WITH_BODY.has(req.method) && hasBody(req)) {
      const mediaType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (!JSON_MEDIA_TYPES.has(mediaType)) {
        throw new ApiError(
          'unsupported_media_type',
          `Content-Type must be application/json or application/merge-patch+json${mediaType ? `, not ${mediaType}` : ''}`,
        );
      }
      await new Promise<void>((resolve, reject) =>
        this.parseJson(req, http.getResponse<Response>(), (err?: unknown) => (err ? reject(err) : resolve())),
      );
      if (nestsDeeperThan(req.body, BODY_MAX_DEPTH)) {
        throw new ApiError('validation_failed', `Request body nests deeper than ${BODY_MAX_DEPTH} levels`);
      }
    }
    return next.handle();
  }
}
