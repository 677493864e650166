import { Injectable, Optional, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Express, Request } from 'express';
import type { EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { Clock } from '../rate-limit/clock.js';
import {
  IdempotencyKeyTaken,
  IdempotencyRepository,
  type IdempotencyRecord,
  type IdempotencyScope,
  type StoredAnswer,
} from './idempotency.repository.js';

const HOUR_MS = 3_600_000;
const APP_LOCALS_KEY = 'petstore.idempotency';

/** One request made under an Idempotency-Key. */
export interface IdempotentRequest extends IdempotencyScope {
  fingerprint: string;
}

/** Stores the answer in the transaction of the changes it reports. */
export type RememberAnswer = (manager: EntityManager, answer: StoredAnswer) => Promise<void>;

export interface IdempotentOutcome {
  answer: StoredAnswer;
  replayed: boolean;
}

// PostgreSQL unique_violation; SQLite's primary-key constraint failure.
const UNIQUE_VIOLATIONS = new Set(['23505', 'SQLITE_CONSTRAINT_PRIMARYKEY']);

function isUniqueViolation(err: unknown): boolean {
  for (let current = err, depth = 0; current && depth < 4; depth++) {
    const { code, driverError, cause } = current as {
      code?: unknown;
      driverError?: unknown;
      cause?: unknown;
    };
    if (typeof code === 'string' && UNIQUE_VIOLATIONS.has(code)) return true;
    current = driverError ?? cause;
  }
  return false;
}

/**
 * Requests that change stock run once per (API key, Idempotency-Key): the record of the first
 * answer commits with its changes. A duplicate sent while the first runs waits on the record's
 * row, fails on the primary key once the first commits, rolls back, and answers as the first
 * did (docs/idempotency.md).
 */
@Injectable()
export class IdempotencyService implements OnModuleInit {
  constructor(
    private readonly records: IdempotencyRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  /** Lets a rate-limit cost function, which sees only the request, tell a replay. */
  onModuleInit(): void {
    const app = this.adapterHost?.httpAdapter?.getInstance<Express>();
    if (app?.locals) app.locals[APP_LOCALS_KEY] = this;
  }

  static of(req: Request): IdempotencyService | undefined {
    return req.app?.locals[APP_LOCALS_KEY] as IdempotencyService | undefined;
  }

  /** Whether a kept answer exists for this key: its retry costs one request. */
  async answered(scope: IdempotencyScope): Promise<boolean> {
    return (await this.records.find(scope, this.keptSince())) !== undefined;
  }

  async once(
    request: IdempotentRequest,
    perform: (remember: RememberAnswer) => Promise<StoredAnswer>,
  ): Promise<IdempotentOutcome> {
    const earlier = await this.records.find(request, this.keptSince());
    if (earlier) return this.replay(request, earlier);
    try {
      const answer = await perform((manager, stored) =>
        this.records.insert(
          manager,
          request,
          { ...stored, fingerprint: request.fingerprint },
          new Date(this.clock.now()),
          this.keptSince(),
        ),
      );
      return { answer, replayed: false };
    } catch (err) {
      if (!(err instanceof IdempotencyKeyTaken) && !isUniqueViolation(err)) throw err;
      const winner = await this.records.find(request, this.keptSince());
      // The row that won is committed by now; without it (pruned meanwhile) the client retries.
      if (!winner)
        throw new ApiError(
          'idempotency_key_in_use',
          'Another request with this Idempotency-Key is being processed; retry shortly',
        );
      return this.replay(request, winner);
    }
  }

  private replay(request: IdempotentRequest, record: IdempotencyRecord): IdempotentOutcome {
    if (record.fingerprint !== request.fingerprint)
      throw new ApiError(
        'idempotency_key_reused',
        'This Idempotency-Key was used for a different request (method, path or body); use a new key for a new change',
      );
    return {
      answer: { status: record.status, body: record.body, etag: record.etag },
      replayed: true,
    };
  }

  keptSince(): Date {
    return new Date(this.clock.now() - this.config.idempotency.retentionHours * HOUR_MS);
  }
}
