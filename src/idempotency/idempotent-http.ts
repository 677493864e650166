import type { Request, Response } from 'express';
import { RawJson } from '../platform/http/index.js';
import { parseIdempotencyKey, requestFingerprint } from './idempotency-key.js';
import {
  IdempotencyService,
  type IdempotentOutcome,
  type IdempotentRequest,
} from './idempotency.service.js';

/** A change request under its Idempotency-Key (400 without a valid one), for the caller's key. */
export function idempotentRequest(req: Request, keyId: number | null): IdempotentRequest {
  const key = parseIdempotencyKey(req);
  return {
    // The required-key guard let only a valid key through.
    keyId: keyId!,
    key,
    fingerprint: requestFingerprint(req.method, req.originalUrl.split('?')[0], req.body),
    earlier: IdempotencyService.lookedUp(req),
  };
}

export function sendIdempotent(res: Response, { answer, replayed }: IdempotentOutcome): RawJson {
  res.status(answer.status);
  if (answer.etag !== null) res.setHeader('ETag', answer.etag);
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  return new RawJson(answer.body);
}
