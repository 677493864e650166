import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import { json } from 'express';
import { ApiError } from '../../common/errors/api-error.js';

export const BODY_LIMIT_BYTES = 16 * 1024;
/** Deeper JSON would overflow the stack of recursive consumers such as class-transformer. */
export const BODY_MAX_DEPTH = 32;
const JSON_MEDIA_TYPES = new Set(['application/json', 'application/merge-patch+json']);
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
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

/**
 * Reads JSON bodies as the last guard rather than as middleware: the limiter then sees (and
 * puts its headers on) every request, 413 and 415 included, and an unauthenticated or
 * rate-limited caller never gets a body parsed. A guard rather than an interceptor because one
 * global interceptor puts every request, GETs included, through an RxJS pipeline of its own;
 * this lets a request through or refuses it, as a guard does.
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
    await new Promise<void>((resolve, reject) =>
      this.parseJson(req, res, (err?: unknown) => (err ? reject(err) : resolve())),
    );
    if (nestsDeeperThan(req.body, BODY_MAX_DEPTH)) {
      throw new ApiError(
        'validation_failed',
        `Request body nests deeper than ${BODY_MAX_DEPTH} levels`,
      );
    }
    return true;
  }
}
