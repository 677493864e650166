import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { NotFoundError, ValidationFailedError } from '../common/errors/api-error.js';
import { ApiKeyEntity } from './api-key.entity.js';
import {
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  keyPrefixFor,
} from './api-key.codec.js';
import { Plan, quotaFor } from './plans.js';
import type { Principal } from './principal.js';

export interface CreateKeyInput {
  plan: Plan;
  name?: string;
  perMinute?: number;
  perDay?: number;
}

export interface CreatedKey {
  key: ApiKeyEntity;
  /** Shown once, to whoever created the key; never stored. */
  rawKey: string;
}

const MAX_CACHED_KEYS = 10_000;

@Injectable()
export class ApiKeysService {
  /**
   * Valid keys by hash, kept for `API_KEY_CACHE_TTL_MS` (at most 9 s) so a key revoked by
   * another process stops within the contract's 10 s. Misses always go to the database, so a
   * key created elsewhere works at once.
   */
  private readonly cache = new Map<string, { principal: Principal; expiresAt: number }>();

  constructor(
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    private readonly config: AppConfig,
  ) {}

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
    const rawKey = generateApiKey(this.config.env);
    const key = await this.keys.save(
      this.keys.create({
        name: input.name ?? null,
        keyHash: hashApiKey(rawKey),
        keyPrefix: displayPrefix(rawKey),
        plan: input.plan,
        perMinute: input.perMinute ?? null,
        perDay: input.perDay ?? null,
        environment: this.config.env,
        revokedAt: null,
      }),
    );
    return { key, rawKey };
  }

  /** Keys of this environment that are not revoked: those a request could use. */
  countUsable(): Promise<number> {
    return this.keys.countBy({ environment: this.config.env, revokedAt: IsNull() });
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

  /**
   * The principal a raw key stands for, or undefined when it is unknown, revoked or foreign.
   * Synchronous while the key is cached: this runs on every request.
   */
  authenticate(rawKey: string): Principal | undefined | Promise<Principal | undefined> {
    // A key of the other environment is refused by its prefix, without a lookup.
    if (!isWellFormedApiKey(rawKey) || !rawKey.startsWith(keyPrefixFor(this.config.env)))
      return undefined;
    const hash = hashApiKey(rawKey);
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > Date.now()) return cached.principal;
    this.cache.delete(hash);
    return this.lookUp(hash);
  }

  private async lookUp(hash: string): Promise<Principal | undefined> {
    const now = Date.now();
    const key = await this.keys.findOneBy({ keyHash: hash, revokedAt: IsNull() });
    // A key belongs to the environment it was created in, even where two share a database.
    if (!key || key.environment !== this.config.env) return undefined;
    const principal: Principal = {
      keyId: key.id,
      keyPrefix: key.keyPrefix,
      plan: key.plan,
      quota: quotaFor(key.plan, key),
    };
    if (this.config.auth.keyCacheTtlMs > 0) {
      if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hash, { principal, expiresAt: now + this.config.auth.keyCacheTtlMs });
    }
    return principal;
  }
}
