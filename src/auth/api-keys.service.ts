import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { NotFoundError, ValidationFailedError } from '../common/errors/api-error.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key.codec.js';
import { Plan, quotaFor } from './plans.js';
import type { Identity, Principal } from './principal.js';

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
const INVALID: Identity = Object.freeze({ kind: 'invalid' });

function identityOf(principal: Principal): Identity {
  return { kind: 'key', principal };
}

@Injectable()
export class ApiKeysService {
  /**
   * Valid keys by hash, kept for `API_KEY_CACHE_TTL_MS` (at most 9 s) so a key revoked by
   * another process stops within the contract's 10 s. Misses go to the database (when the
   * client's IP may still spend a lookup: RateLimitGuard), so a key created elsewhere works at once.
   */
  private readonly cache = new Map<string, { identity: Identity; expiresAt: number }>();

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
   * Who a raw key names, as far as the key cache knows without a query: a key, an invalid key
   * (malformed), or an unverified one (its hash) that `verify` looks up. Runs on every request.
   */
  identify(rawKey: string): Identity {
    if (!isWellFormedApiKey(rawKey)) return INVALID;
    const hash = hashApiKey(rawKey);
    const cached = this.cache.get(hash);
    if (cached === undefined) return { kind: 'unverified', hash, knownValid: false };
    if (cached.expiresAt > Date.now()) return cached.identity;
    return { kind: 'unverified', hash, knownValid: true };
  }

  /** Looks an unverified key up: a key, or invalid when it is unknown, revoked or foreign. */
  async verify(hash: string): Promise<Identity> {
    const principal = await this.lookUp(hash);
    if (principal === undefined) this.cache.delete(hash);
    return principal === undefined
      ? INVALID
      : (this.cache.get(hash)?.identity ?? identityOf(principal));
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
      // Entries stay past their expiry (a valid key's is refreshed at its next use), so the
      // bound evicts by age: the first inserted is the least recently refreshed.
      this.cache.delete(hash);
      if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hash, {
        identity: identityOf(principal),
        expiresAt: now + this.config.auth.keyCacheTtlMs,
      });
    }
    return principal;
  }
}
