import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import { json } from 'express';
import type { Observable } from 'rxjs';
import { ApiError } from '../errors/api-error.js';

export const BODY_LIMIT_BYTES = 16 * 1024;
const JSON_MEDIA_TYPES = new Set(['application/json', 'application/merge-patch+json']);
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
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
    }
    return next.handle();
  }
}
