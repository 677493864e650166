import type { ApiKeyEntity } from '../auth/api-key.entity.js';
import type { ApiKeysService } from '../auth/api-keys.service.js';
import { EXPIRES_IN, GRACE, parseKeyDuration, type DurationRule } from '../auth/key-duration.js';
import { isKeyScope, KEY_SCOPES } from '../auth/key-scope.js';
import { isPlan, PLANS, quotaFor } from '../auth/plans.js';
import {
  type Command,
  type CommandContext,
  optionString,
  parseIntegerArg,
  table,
  UsageError,
} from './command.js';

const MAX_LIMIT = 2_147_483_647;
const MAX_NAME_LENGTH = 100;

async function apiKeys(ctx: CommandContext): Promise<ApiKeysService> {
  const service = await import('../auth/api-keys.service.js');
  return ctx.get(service.ApiKeysService);
}

function keySummary(key: ApiKeyEntity) {
  const quota = quotaFor(key.plan, key);
  return {
    id: key.id,
    prefix: key.keyPrefix,
    name: key.name,
    plan: key.plan,
    perMinute: quota.perMinute,
    perDay: quota.perDay,
    environment: key.environment,
    scope: key.scope,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt ? key.expiresAt.toISOString() : null,
    revokedAt: key.revokedAt ? key.revokedAt.toISOString() : null,
    replacedById: key.replacedById,
    rolledAt: key.rolledAt ? key.rolledAt.toISOString() : null,
  };
}

function duration(flag: string, value: string | undefined, rule: DurationRule): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseKeyDuration(value, rule);
  if (typeof ms !== 'number') throw new UsageError(`${flag} ${ms.error}`);
  return ms;
}

function tableTime(iso: string | null): string {
  return iso === null ? '-' : iso.replace(/\.\d{3}Z$/, 'Z');
}

function expiryNote(iso: string | null): string {
  return iso === null ? 'never expires' : `expires ${iso}`;
}

function optionalLimit(flag: string, value: string | undefined): number | undefined {
  return value === undefined ? undefined : parseIntegerArg(flag, value, 1, MAX_LIMIT);
}

const createKey: Command = {
  path: ['keys', 'create'],
  args: [],
  options: {
    plan: { type: 'string' },
    name: { type: 'string' },
    'per-minute': { type: 'string' },
    'per-day': { type: 'string' },
    scope: { type: 'string' },
    'expires-in': { type: 'string' },
    json: { type: 'boolean' },
  },
  synopsis:
    `--plan ${PLANS.join('|')} [--name LABEL] [--per-minute N] [--per-day N] ` +
    `[--scope ${KEY_SCOPES.join('|')}] [--expires-in <N>d|<N>h] [--json]`,
  description:
    'Create an API key and print it once, as the last line (--json: one object with "key").\n' +
    'Enterprise keys need --per-minute and --per-day; the other plans may override their limits.\n' +
    'A read key may only GET; a write key (the default) may do everything. With --expires-in\n' +
    '(e.g. 30d, 12h) the key stops working that long after its creation; without it, never.',
  async run(ctx, { options }) {
    const plan = optionString(options, 'plan');
    if (plan === undefined) throw new UsageError(`--plan is required (${PLANS.join(', ')})`);
    if (!isPlan(plan)) {
      throw new UsageError(
        `--plan must be one of ${PLANS.join(', ')} (got ${JSON.stringify(plan)})`,
      );
    }
    const name = optionString(options, 'name');
    if (name !== undefined && (name.trim() === '' || name.length > MAX_NAME_LENGTH)) {
      throw new UsageError(`--name must be 1 to ${MAX_NAME_LENGTH} characters`);
    }
    const perMinute = optionalLimit('--per-minute', optionString(options, 'per-minute'));
    const perDay = optionalLimit('--per-day', optionString(options, 'per-day'));
    if (plan === 'enterprise' && (perMinute === undefined || perDay === undefined)) {
      throw new UsageError('an enterprise key needs both --per-minute and --per-day');
    }
    const scope = optionString(options, 'scope') ?? 'write';
    if (!isKeyScope(scope)) {
      throw new UsageError(
        `--scope must be one of ${KEY_SCOPES.join(', ')} (got ${JSON.stringify(scope)})`,
      );
    }
    const expiresInMs = duration('--expires-in', optionString(options, 'expires-in'), EXPIRES_IN);

    const { key, rawKey } = await (
      await apiKeys(ctx)
    ).create({ plan, name, perMinute, perDay, scope, expiresInMs });
    const summary = keySummary(key);
    if (options.json) {
      const { revokedAt: _revokedAt, ...created } = summary;
      ctx.out(JSON.stringify({ ...created, key: rawKey }));
      return;
    }
    ctx.out(
      `Created API key ${key.id} (${key.keyPrefix}) on the ${plan} plan: ${summary.perMinute}/minute, ` +
        `${summary.perDay}/day, environment ${key.environment}, ${key.scope} scope, ${expiryNote(summary.expiresAt)}.`,
    );
    ctx.out('Store the key now; it cannot be shown again:');
    ctx.out(rawKey);
  },
};

const listKeys: Command = {
  path: ['keys', 'list'],
  args: [],
  options: { json: { type: 'boolean' } },
  synopsis: '[--json]',
  description:
    'List API keys with their limits, scope, expiry and state, and which key replaced which\n' +
    '(raw keys are never stored, so never shown).',
  async run(ctx, { options }) {
    const keys = (await (await apiKeys(ctx)).list()).map(keySummary);
    if (options.json) {
      ctx.out(JSON.stringify(keys));
      return;
    }
    if (keys.length === 0) {
      ctx.out('No API keys.');
      return;
    }
    const header = [
      'ID',
      'PREFIX',
      'NAME',
      'PLAN',
      'PER MINUTE',
      'PER DAY',
      'ENVIRONMENT',
      'SCOPE',
      'CREATED',
      'EXPIRES',
      'REVOKED',
      'REPLACED BY',
    ];
    const rows = keys.map((key) => [
      String(key.id),
      key.prefix,
      key.name ?? '-',
      key.plan,
      String(key.perMinute),
      String(key.perDay),
      key.environment,
      key.scope,
      tableTime(key.createdAt),
      tableTime(key.expiresAt),
      tableTime(key.revokedAt),
      key.replacedById === null ? '-' : String(key.replacedById),
    ]);
    for (const line of table(header, rows)) ctx.out(line);
  },
};

const revokeKey: Command = {
  path: ['keys', 'revoke'],
  args: ['ID'],
  options: {},
  synopsis: '',
  description:
    'Revoke an API key by id (see keys list). Running servers refuse it within 10 seconds.',
  async run(ctx, { args }) {
    const id = parseIntegerArg('ID', args.ID, 1, MAX_LIMIT);
    const keys = await apiKeys(ctx);
    const before = (await keys.list()).find((key) => key.id === id);
    if (before?.revokedAt) {
      ctx.out(
        `API key ${id} (${before.keyPrefix}) was already revoked on ${before.revokedAt.toISOString()}; nothing changed.`,
      );
      return;
    }
    const key = await keys.revoke(id);
    ctx.out(
      `Revoked API key ${id} (${key.keyPrefix}); running servers refuse it within 10 seconds.`,
    );
  },
};

const rollKey: Command = {
  path: ['keys', 'roll'],
  args: ['ID'],
  options: { grace: { type: 'string' }, json: { type: 'boolean' } },
  synopsis: '[--grace <N>h] [--json]',
  description:
    'Replace an API key with a new one of the same plan, limits, name, scope and expiry, printed\n' +
    'once as the last line (--json: one object with "key"). The old key keeps working for the\n' +
    'grace period (default 24h; 0h stops it at once, within 10 seconds on running servers).',
  async run(ctx, { args, options }) {
    const id = parseIntegerArg('ID', args.ID, 1, MAX_LIMIT);
    const graceMs = duration('--grace', optionString(options, 'grace') ?? '24h', GRACE)!;
    const { key, rawKey, previous } = await (await apiKeys(ctx)).roll(id, graceMs);
    const summary = keySummary(key);
    const graceEndsAt = previous.expiresAt!.toISOString();
    if (options.json) {
      const { revokedAt: _revokedAt, ...created } = summary;
      ctx.out(JSON.stringify({ ...created, key: rawKey, replacesId: previous.id, graceEndsAt }));
      return;
    }
    ctx.out(
      `Rolled API key ${previous.id} (${previous.keyPrefix}): API key ${key.id} (${key.keyPrefix}) replaces it, ` +
        `on the ${key.plan} plan: ${summary.perMinute}/minute, ${summary.perDay}/day, ${key.scope} scope, ` +
        `${expiryNote(summary.expiresAt)}.`,
    );
    ctx.out(
      `The old key works until ${graceEndsAt}; running servers refuse it within 10 seconds after that.`,
    );
    ctx.out('Store the new key now; it cannot be shown again:');
    ctx.out(rawKey);
  },
};

export const KEYS_COMMANDS: readonly Command[] = [createKey, listKeys, revokeKey, rollKey];
