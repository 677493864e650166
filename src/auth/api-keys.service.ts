import { Injectable, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { NotFoundError, ValidationFailedError } from '../common/errors/api-error.js';
import { writeTransaction } from '../database/sql.js';
import { Clock, SystemClock } from '../rate-limit/clock.js';
import { ApiKeyEntity } from './api-key.entity.js';
import {
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  keyPrefixFor,
} from './api-key.codec.js';
import { EXPIRES_IN, GRACE, type DurationRule } from './key-duration.js';
import { isKeyScope, type KeyScope } from './key-scope.js';
import { LookupPermits, lookupPermitsFor } from './lookup-permits.js';
import { Plan, quotaFor } from './plans.js';
import type { Identity, Principal } from './principal.js';

export interface CreateKeyInput {
  plan: Plan;
  name?: string;
  perMinute?: number;
  perDay?: number;
  scope?: KeyScope;
  expiresInMs?: number;
}

export interface CreatedKey {
  key: ApiKeyEntity;
  rawKey: string;
}

export interface RolledKey extends CreatedKey {
  previous: ApiKeyEntity;
}

export class KeyStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyStateError';
  }
}

const MAX_CACHED_KEYS = 10_000;
const HOUR_MS = 3_600_000;

function checkDuration(field: string, ms: number | undefined, rule: DurationRule): void {
  if (
    ms !== undefined &&
    !(Number.isInteger(ms) && ms >= rule.minHours * HOUR_MS && ms <= rule.maxHours * HOUR_MS)
  ) {
    throw new ValidationFailedError(
      `${field} must be from ${rule.minHours} to ${rule.maxHours} hours, in milliseconds`,
    );
  }
}

const INVALID: Identity = Object.freeze({ kind: 'invalid' });

function identityOf(principal: Principal): Identity {
  return { kind: 'key', principal };
}

interface CachedKey {
  identity: Identity;
  refreshAt: number;
  cachedUntil: number;
  expiresAt: number;
}

@Injectable()
export class ApiKeysService {
  // Valid keys by hash for API_KEY_CACHE_TTL_MS (at most 9 s), so a key revoked or rolled elsewhere
  // stops within the contract's 10 s; misses go to the database, so a new key works at once.
  private readonly cache = new Map<string, CachedKey>();
  private readonly inflight = new Map<string, Promise<Identity>>();
  readonly lookupPermits: LookupPermits;

  constructor(
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    private readonly config: AppConfig,
    @Optional() private readonly clock: Clock = new SystemClock(),
  ) {
    const db = config.database;
    this.lookupPermits = new LookupPermits(
      lookupPermitsFor(db.type === 'postgres' ? db.poolSize : undefined),
    );
  }

  async create(input: CreateKeyInput): Promise<CreatedKey> {
    for (const [field, value] of [
      ['perMinute', input.perMinute],
      ['perDay', input.perDay],
    ] as const) {
      if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > 2_147_483_647)) {
        throw new ValidationFailedError(`${field} must be an integer from 1 to 2147483647`);
      }
    }
    if (
      input.plan === 'enterprise' &&
      (input.perMinute === undefined || input.perDay === undefined)
    ) {
      throw new ValidationFailedError(
        'an enterprise key needs both a per-minute and a per-day limit',
      );
    }
    if (input.scope !== undefined && !isKeyScope(input.scope)) {
      throw new ValidationFailedError('scope must be read or write');
    }
    checkDuration('expiresInMs', input.expiresInMs, EXPIRES_IN);
    const expiresAt =
      input.expiresInMs === undefined ? null : new Date(this.clock.now() + input.expiresInMs);
    return this.insert(this.keys, {
      name: input.name ?? null,
      plan: input.plan,
      perMinute: input.perMinute ?? null,
      perDay: input.perDay ?? null,
      scope: input.scope ?? 'write',
      expiresAt,
    });
  }

  // Claimed only if no one revoked or rolled it meanwhile, so two rolls never both succeed.
  async roll(id: number, graceMs: number): Promise<RolledKey> {
    checkDuration('graceMs', graceMs, GRACE);
    const rolled = await writeTransaction(this.keys.manager.dataSource, async (manager) => {
      const keys = manager.getRepository(ApiKeyEntity);
      const old = await keys.findOneBy({ id });
      if (!old) throw new NotFoundError(`No API key with id ${id}`);
      const now = this.clock.now();
      this.assertRollable(old, now);
      const created = await this.insert(keys, {
        name: old.name,
        plan: old.plan,
        perMinute: old.perMinute,
        perDay: old.perDay,
        scope: old.scope,
        expiresAt: old.expiresAt,
      });
      const graceEnds = now + graceMs;
      const expiresAt =
        old.expiresAt && old.expiresAt.getTime() < graceEnds ? old.expiresAt : new Date(graceEnds);
      const rolledAt = new Date(now);
      const claimed = await keys.update(
        { id, revokedAt: IsNull(), replacedById: IsNull() },
        { replacedById: created.key.id, rolledAt, expiresAt },
      );
      if (claimed.affected !== 1) {
        const current = await keys.findOneBy({ id });
        if (current) this.assertRollable(current, this.clock.now());
        throw new KeyStateError(`API key ${id} changed while it was being rolled; nothing changed`);
      }
      return {
        ...created,
        previous: { ...old, replacedById: created.key.id, rolledAt, expiresAt },
      };
    });
    this.cache.delete(rolled.previous.keyHash);
    return rolled;
  }

  private assertRollable(key: ApiKeyEntity, now: number): void {
    if (key.revokedAt) {
      throw new KeyStateError(
        `API key ${key.id} was revoked on ${key.revokedAt.toISOString()}; a revoked key cannot be rolled (create a new key instead)`,
      );
    }
    if (key.replacedById !== null) {
      throw new KeyStateError(
        `API key ${key.id} was already rolled on ${key.rolledAt?.toISOString() ?? 'an earlier date'}: key ${key.replacedById} replaced it; roll key ${key.replacedById} instead`,
      );
    }
    if (key.expiresAt && key.expiresAt.getTime() <= now) {
      throw new KeyStateError(
        `API key ${key.id} expired on ${key.expiresAt.toISOString()}; an expired key cannot be rolled (create a new key instead)`,
      );
    }
    if (key.environment !== this.config.env) {
      throw new KeyStateError(
        `API key ${key.id} belongs to the ${key.environment} environment; roll it with APP_ENV=${key.environment}`,
      );
    }
  }

  private async insert(
    keys: Repository<ApiKeyEntity>,
    fields: Pick<ApiKeyEntity, 'name' | 'plan' | 'perMinute' | 'perDay' | 'scope' | 'expiresAt'>,
  ): Promise<CreatedKey> {
    const rawKey = generateApiKey(this.config.env);
    // Inside roll's transaction, save must not open one of its own.
    const key = await keys.save(
      keys.create({
        ...fields,
        keyHash: hashApiKey(rawKey),
        keyPrefix: displayPrefix(rawKey),
        environment: this.config.env,
        revokedAt: null,
        replacedById: null,
        rolledAt: null,
      }),
      { transaction: false },
    );
    return { key, rawKey };
  }

  countUsable(): Promise<number> {
    return this.keys.count({
      where: [
        { environment: this.config.env, revokedAt: IsNull(), expiresAt: IsNull() },
        {
          environment: this.config.env,
          revokedAt: IsNull(),
          expiresAt: MoreThan(new Date(this.clock.now())),
        },
      ],
    });
  }

  list(): Promise<ApiKeyEntity[]> {
    return this.keys.find({ order: { id: 'ASC' } });
  }

  async revoke(id: number): Promise<ApiKeyEntity> {
    const key = await this.keys.findOneBy({ id });
    if (!key) throw new NotFoundError(`No API key with id ${id}`);
    if (!key.revokedAt) {
      key.revokedAt = new Date();
      await this.keys.update({ id, revokedAt: IsNull() }, { revokedAt: key.revokedAt });
    }
    this.cache.delete(key.keyHash);
    return key;
  }

  identify(rawKey: string): Identity {
    if (!isWellFormedApiKey(rawKey) || !rawKey.startsWith(keyPrefixFor(this.config.env)))
      return INVALID;
    const hash = hashApiKey(rawKey);
    const cached = this.cache.get(hash);
    if (cached === undefined) return { kind: 'unverified', hash, knownValid: false };
    const now = Date.now();
    if (cached.cachedUntil > now && cached.expiresAt > this.clock.now()) {
      if (now >= cached.refreshAt) this.refresh(hash);
      return cached.identity;
    }
    return { kind: 'unverified', hash, knownValid: true };
  }

  /** `admit` runs only for a lookup this call starts: joining another's costs no admission. */
  verify(hash: string, admit?: () => Promise<void>): Promise<Identity> {
    let pending = this.inflight.get(hash);
    if (pending === undefined) {
      pending = this.lookUpOnce(hash, async () => {
        await admit?.();
        await this.lookupPermits.acquire();
      });
      this.inflight.set(hash, pending);
    }
    return pending;
  }

  // Only with a permit free at once: a busy share serves the cached entry, which is still valid.
  private refresh(hash: string): void {
    if (this.inflight.has(hash) || !this.lookupPermits.tryAcquire()) return;
    const pending = this.lookUpOnce(hash, () => Promise.resolve());
    this.inflight.set(hash, pending);
    // A failed refresh leaves the entry to run out; the next use after that looks it up again.
    pending.catch(() => undefined);
  }

  private async lookUpOnce(hash: string, acquire: () => Promise<void>): Promise<Identity> {
    try {
      await acquire();
      let principal: Principal | undefined;
      try {
        principal = await this.lookUp(hash);
      } finally {
        this.lookupPermits.release();
      }
      if (principal === undefined) this.cache.delete(hash);
      return principal === undefined
        ? INVALID
        : (this.cache.get(hash)?.identity ?? identityOf(principal));
    } finally {
      this.inflight.delete(hash);
    }
  }

  private async lookUp(hash: string): Promise<Principal | undefined> {
    const cachedAt = Date.now();
    const key = await this.keys.findOneBy({ keyHash: hash, revokedAt: IsNull() });
    // A key belongs to the environment it was created in, even where two share a database.
    if (!key || key.environment !== this.config.env) return undefined;
    const expiresAt = key.expiresAt ? key.expiresAt.getTime() : Infinity;
    if (expiresAt <= this.clock.now()) return undefined;
    const principal: Principal = {
      keyId: key.id,
      keyPrefix: key.keyPrefix,
      plan: key.plan,
      quota: quotaFor(key.plan, key),
      scope: key.scope,
    };
    const ttl = this.config.auth.keyCacheTtlMs;
    // Entries outlive their expiry (refreshed at next use), so the bound evicts by age.
    this.cache.delete(hash);
    if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value!);
    // The entry ends with the key: a cached key is never served past its own expiry.
    this.cache.set(hash, {
      identity: identityOf(principal),
      refreshAt: cachedAt + ttl / 2,
      cachedUntil: cachedAt + ttl,
      expiresAt,
    });
    return principal;
  }
}
