import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { IdentifiedRequest } from '../../auth/principal.js';
import { parseIdempotencyKey } from '../../idempotency/idempotency-key.js';
import { IdempotencyService } from '../../idempotency/idempotency.service.js';
import { readJsonBody } from '../../platform/http/index.js';
import type { RequestCost } from '../../rate-limit/rate-limit-cost.decorator.js';
import { MAX_BATCH_LINES } from './dto/inventory-batch.dto.js';

/**
 * A batch counts one request per line (contract: batches); a retry answered from its kept answer
 * counts one, and so does a body that is refused before any line is read. The limiter asks before
 * the body guard runs, so the body (at most 16 KiB) is read here, once, for a valid key only; a
 * refused body counts one and its refusal comes from the body guard, after the limiter's headers.
 */
@Injectable()
export class BatchCost implements RequestCost {
  constructor(private readonly idempotency: IdempotencyService) {}

  async cost(req: Request): Promise<number> {
    const principal = (req as IdentifiedRequest).principal;
    if (principal === undefined) return 1;
    let key: string;
    try {
      key = parseIdempotencyKey(req);
    } catch {
      return 1;
    }
    if (!(await readJsonBody(req).catch(() => false))) return 1;
    const changes = (req.body as { changes?: unknown } | undefined)?.changes;
    if (!Array.isArray(changes) || changes.length < 1 || changes.length > MAX_BATCH_LINES) return 1;
    const answered = await this.idempotency.answered(req, {
      keyId: principal.keyId,
      key,
    });
    return answered ? 1 : changes.length;
  }
}
