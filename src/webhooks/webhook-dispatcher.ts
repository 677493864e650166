import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { isDatabaseUnavailable } from '../database/database-errors.js';
import type { ChangeRow } from '../inventory/history/change-record.js';
import { StockCommitted } from '../inventory/writes/stock-committed.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { abortableDelay, WebhookClock } from './webhook-clock.js';
import { messageBody } from './webhook-message.js';
import { type EndpointRow, type NewDelivery, WebhookRepository } from './webhook.repository.js';
import { afterFailure, parseRetryAfter } from './retry-policy.js';
import { messageId, signatureHeader } from './signature.js';
import { type SendResult, WebhookSender } from './webhook-sender.js';

const BATCH = 100;
const FLUSH_MS = 100;
const SCAN_MS = 1000;
const PRUNE_MS = 60_000;
const RECHECK_MS = 1000;

export function liveSecrets(endpoint: EndpointRow, now: number): string[] {
  const { secret, previousSecret, previousSecretUntil } = endpoint;
  return previousSecret !== null && previousSecretUntil !== null && previousSecretUntil > now
    ? [secret, previousSecret]
    : [secret];
}

export function failureReason(result: SendResult): string {
  if (result.outcome === 'http_error') return `HTTP ${result.status}`;
  return (result.error ?? result.outcome).slice(0, 300);
}

export function wakeOnCommit(committed: StockCommitted): { signal: AbortSignal; stop: () => void } {
  const woken = new AbortController();
  const stop = committed.listen(() => woken.abort());
  return { signal: woken.signal, stop };
}

// Ids are in commit order (docs/api-changes.md): `id > cursor` never skips a late commit.
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  readonly owner = `${hostname().slice(0, 40)}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly workers = new Map<number, Promise<void>>();
  private readonly stopping = new AbortController();
  private scanning: Promise<void> | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly repository: WebhookRepository,
    private readonly clock: WebhookClock,
    private readonly metrics: MetricsService,
    private readonly committed: StockCommitted,
  ) {}

  onApplicationBootstrap(): void {
    this.scanning = this.scanLoop();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await this.scanning;
    await Promise.allSettled([...this.workers.values()]);
  }

  // An outage is reported where requests meet it; deliveries simply resume after it.
  private failed(what: string, err: unknown): void {
    const message = `${what} failed: ${err instanceof Error ? err.message : String(err)}`;
    if (isDatabaseUnavailable(err)) this.logger.debug(message);
    else this.logger.warn(message);
  }

  private async scanLoop(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      try {
        await this.scan();
      } catch (err) {
        this.failed('Webhook scan', err);
      }
      await abortableDelay(Math.min(SCAN_MS, this.config.webhooks.leaseMs / 3), signal);
    }
  }

  async scan(): Promise<void> {
    const now = this.clock.now();
    const lease = this.config.webhooks.leaseMs;
    for (const id of await this.repository.claimable(this.owner, now)) {
      if (this.workers.has(id) || this.stopping.signal.aborted) continue;
      if (!(await this.repository.claim(id, this.owner, now, lease))) continue;
      const run = this.deliverLoop(id)
        .catch((err: unknown) => this.failed(`Webhook endpoint ${id}`, err))
        .finally(() => this.workers.delete(id));
      this.workers.set(id, run);
    }
  }

  private async waitForRetry(
    endpoint: EndpointRow,
    ms: number,
    signal: AbortSignal,
  ): Promise<void> {
    const changed = new AbortController();
    const either = AbortSignal.any([signal, changed.signal]);
    const watch = (async () => {
      while (!either.aborted) {
        await abortableDelay(RECHECK_MS, either);
        if (either.aborted) return;
        const now = await this.repository.find(endpoint.id).catch(() => endpoint);
        if (
          now?.generation !== endpoint.generation ||
          now.nextAttemptAt !== endpoint.nextAttemptAt ||
          now.disabledAt !== null ||
          now.leaseOwner !== this.owner
        )
          changed.abort();
      }
    })();
    await this.clock.wait(ms, either);
    changed.abort();
    await watch;
  }

  private async deliverLoop(id: number): Promise<void> {
    const { leaseMs, pollMs, timeoutMs, allowHttp, allowPrivate, allowLoopback } =
      this.config.webhooks;
    const lost = new AbortController();
    const signal = AbortSignal.any([this.stopping.signal, lost.signal]);
    let heldUntil = this.clock.now() + leaseMs;
    const renewal = setInterval(() => {
      const until = this.clock.now() + leaseMs;
      this.repository.renew(id, this.owner, this.clock.now(), leaseMs).then(
        (held) => (held ? (heldUntil = until) : lost.abort()),
        // Unsure whether it still holds: it stops before the lease could have passed to another.
        () => this.clock.now() + leaseMs / 3 >= heldUntil && lost.abort(),
      );
    }, leaseMs / 3);

    let sender: WebhookSender | undefined;
    let generation = -1;
    let cursor = 0n;
    let attempts: NewDelivery[] = [];
    let lastFlush = this.clock.now();
    let lastPrune = 0;
    const flush = async (): Promise<boolean> => {
      lastFlush = this.clock.now();
      if (attempts.length === 0) return true;
      const written = attempts;
      attempts = [];
      const moved = await this.repository.advance(
        id,
        this.owner,
        generation,
        { cursor, failures: 0, nextAttemptAt: null },
        written,
      );
      if (!moved) await this.repository.recordAttempts(id, written);
      return moved;
    };

    try {
      while (!signal.aborted) {
        const endpoint = await this.repository.find(id);
        if (!endpoint || endpoint.disabledAt !== null || endpoint.leaseOwner !== this.owner) break;
        if (endpoint.generation !== generation) {
          generation = endpoint.generation;
          cursor = endpoint.cursor;
          attempts = [];
        }
        sender ??= new WebhookSender(endpoint.url, {
          timeoutMs,
          allowHttp,
          allowPrivate,
          allowLoopback,
        });
        if (lastPrune + PRUNE_MS < this.clock.now()) {
          lastPrune = this.clock.now();
          await this.repository.pruneDeliveries(id);
        }
        const waitMs = (endpoint.nextAttemptAt ?? 0) - this.clock.now();
        if (waitMs > 0) {
          await this.waitForRetry(endpoint, waitMs, signal);
          continue;
        }
        // Listening before the read: a commit after it ends the poll at once, one before it is read.
        const woken = wakeOnCommit(this.committed);
        let changes: ChangeRow[];
        try {
          changes = await this.repository.changesAfter(cursor, BATCH);
          if (changes.length === 0) {
            this.metrics.webhookLag(id, null);
            await abortableDelay(pollMs, AbortSignal.any([signal, woken.signal]));
            continue;
          }
        } finally {
          woken.stop();
        }
        let failures = endpoint.failures;
        for (const change of changes) {
          if (signal.aborted) break;
          // Read per message: a secret rolled with no grace must stop signing at once.
          const current = await this.repository.find(id);
          if (!current) break;
          const now = this.clock.now();
          this.metrics.webhookLag(id, new Date(change.changedAt).getTime());
          const webhookId = messageId(id, change.id);
          const timestamp = Math.floor(now / 1000);
          const body = messageBody(change);
          const result = await sender.send(
            body,
            {
              'webhook-id': webhookId,
              'webhook-timestamp': String(timestamp),
              'webhook-signature': signatureHeader(
                webhookId,
                timestamp,
                body,
                liveSecrets(current, now),
              ),
            },
            signal,
          );
          // Stopping is no failure of the receiver's: the change is simply sent again later.
          if (signal.aborted) break;
          this.metrics.webhookAttempt(result.outcome, result.durationMs / 1000);
          attempts.push({
            changeId: change.id,
            attempt: failures + 1,
            status: result.status ?? null,
            durationMs: result.durationMs,
            error: result.error?.slice(0, 1024) ?? null,
            attemptedAt: now,
          });
          if (result.outcome === 'delivered') {
            cursor = BigInt(change.id);
            failures = 0;
            // A replay moved the cursor, or the lease is gone: start again from what is stored.
            if (this.clock.now() - lastFlush >= FLUSH_MS && !(await flush())) break;
            continue;
          }
          failures += 1;
          const next = afterFailure(
            failures,
            this.config.webhooks.retrySchedule,
            { status: result.status, retryAfterMs: parseRetryAfter(result.retryAfter, now) },
            this.clock.random(),
          );
          const written = attempts;
          attempts = [];
          const nextAttemptAt = this.clock.now() + (next.action === 'retry' ? next.delayMs : 0);
          const moved = await this.repository.advance(
            id,
            this.owner,
            generation,
            next.action === 'retry'
              ? { cursor, failures, nextAttemptAt }
              : {
                  cursor,
                  failures,
                  nextAttemptAt: null,
                  disable: { at: this.clock.now(), reason: next.reason },
                },
            written,
          );
          if (!moved) await this.repository.recordAttempts(id, written);
          this.logger.warn(
            `Webhook endpoint ${id}: attempt ${failures} of change ${change.id} failed (${failureReason(result)}); ` +
              (!moved
                ? 'the endpoint changed meanwhile (replay, enable or removal) and carries on from what is stored'
                : next.action === 'retry'
                  ? `next attempt at ${new Date(nextAttemptAt).toISOString()}`
                  : `endpoint disabled: ${next.reason}`),
          );
          break;
        }
        await flush();
      }
    } finally {
      clearInterval(renewal);
      sender?.close();
      this.metrics.webhookLag(id, undefined);
      if (!lost.signal.aborted) {
        await flush().catch(() => undefined);
        await this.repository.release(id, this.owner).catch(() => undefined);
      }
    }
  }
}
