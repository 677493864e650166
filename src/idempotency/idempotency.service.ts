import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { Clock } from '../rate-limit/clock.js';
import {
  IdempotencyKeyTaken,
  IdempotencyRepository,
  scopeId,
  type IdempotencyRecord,
  type IdempotencyScope,
  type ScopedRecord,
  type StoredAnswer,
} from './idempotency.repository.js';

const HOUR_MS = 3_600_000;
const lookups = new WeakMap<Request, Promise<IdempotencyRecord | undefined>>();

/** One request made under an Idempotency-Key. */
export interface IdempotentRequest extends IdempotencyScope {
  fingerprint: string;
  /** The kept answer already looked up for this request (by its rate-limit cost), if any. */
  earlier?: Promise<IdempotencyRecord | undefined>;
}

/** The answer a request keeps, made from the outcome of its changes. */
export interface PendingAnswer<O> {
  request: IdempotentRequest;
  answer(outcome: O): StoredAnswer;
  /** The answer as written, set inside the transaction. */
  kept?: StoredAnswer;
}

/**
 * In the transaction of requests whose changes commit together, once their outcomes are known and
 * before anything is written: writes their answers (one statement) and answers, in order,
 * IdempotencyKeyTaken for each request whose key is held (by a live record, or by a request
 * before it in the same statement) and undefined for the others; then, if some were taken out,
 * rewrites the answers of the others that their new outcomes changed (one statement).
 */
export interface AnswerKeeper<O> {
  run(
    manager: EntityManager,
    calls: readonly { item: PendingAnswer<O>; outcome: O }[],
  ): Promise<readonly unknown[]>;
  revise(
    manager: EntityManager,
    calls: readonly { item: PendingAnswer<O>; outcome: O }[],
  ): Promise<void>;
}

/** What a request's changes carry into their transaction: its answer, and who writes it. */
export interface KeepAnswer<O> {
  work: AnswerKeeper<O>;
  item: PendingAnswer<O>;
}

export interface IdempotentOutcome {
  answer: StoredAnswer;
  replayed: boolean;
}

function sameAnswer(a: StoredAnswer, b: StoredAnswer | undefined): boolean {
  return a.status === b?.status && a.etag === b.etag && a.body === b.body;
}

/**
 * Requests that change stock run once per (API key, Idempotency-Key): the record of the first
 * answer commits with its changes. A duplicate sent while the first runs finds the key taken when
 * it writes its record (after the first committed), is taken out before anything of it is
 * written, and answers as the first did (docs/idempotency.md).
 */
@Injectable()
export class IdempotencyService {
  constructor(
    private readonly records: IdempotencyRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Whether a kept answer exists for this key: its retry costs one request. The answer found is
   * the request's `earlier` (see `lookedUp`), so it is read once.
   */
  async answered(req: Request, scope: IdempotencyScope): Promise<boolean> {
    const found = this.records.find(scope, this.keptSince());
    lookups.set(req, found);
    return (await found) !== undefined;
  }

  /** The kept answer `answered` found for this request, if it asked. */
  static lookedUp(req: Request): Promise<IdempotencyRecord | undefined> | undefined {
    return lookups.get(req);
  }

  private readonly keeper: AnswerKeeper<unknown> = {
    run: (manager, calls) => this.keep(manager, calls),
    revise: (manager, calls) => this.rewrite(manager, calls),
  };

  async once<O>(
    request: IdempotentRequest,
    answer: (outcome: O) => StoredAnswer,
    perform: (keep: KeepAnswer<O>) => Promise<O>,
  ): Promise<IdempotentOutcome> {
    // A key already answered is found when its record is written, unless the cost looked it up.
    const earlier = await request.earlier;
    if (earlier) return this.replay(request, earlier);
    const item: PendingAnswer<O> = { request, answer };
    try {
      const outcome = await perform({ work: this.keeper, item });
      return { answer: item.kept ?? answer(outcome), replayed: false };
    } catch (err) {
      if (!(err instanceof IdempotencyKeyTaken)) throw err;
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

  private async keep(
    manager: EntityManager,
    calls: readonly { item: PendingAnswer<unknown>; outcome: unknown }[],
  ): Promise<unknown[]> {
    const errors: unknown[] = calls.map(() => undefined);
    const records: ScopedRecord[] = [];
    const written: number[] = [];
    const scopes = new Set<string>();
    calls.forEach(({ item, outcome }, i) => {
      item.kept = item.answer(outcome);
      const { request } = item;
      const id = scopeId(request);
      // PostgreSQL refuses a statement that meets one row twice: a second request with the key
      // loses to the first, as it would in a transaction of its own.
      if (scopes.has(id)) return void (errors[i] = new IdempotencyKeyTaken());
      scopes.add(id);
      records.push({
        scope: { keyId: request.keyId, key: request.key },
        record: { ...item.kept, fingerprint: request.fingerprint },
      });
      written.push(i);
    });
    const inserted = await this.records.insertAll(
      manager,
      records,
      new Date(this.clock.now()),
      this.keptSince(),
    );
    written.forEach((i, j) => {
      if (!inserted.has(scopeId(records[j].scope))) errors[i] = new IdempotencyKeyTaken();
    });
    return errors;
  }

  private async rewrite(
    manager: EntityManager,
    calls: readonly { item: PendingAnswer<unknown>; outcome: unknown }[],
  ): Promise<void> {
    const records: ScopedRecord[] = [];
    for (const { item, outcome } of calls) {
      const kept = item.answer(outcome);
      if (sameAnswer(kept, item.kept)) continue;
      item.kept = kept;
      records.push({
        scope: { keyId: item.request.keyId, key: item.request.key },
        record: { ...kept, fingerprint: item.request.fingerprint },
      });
    }
    await this.records.rewriteAll(manager, records);
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
