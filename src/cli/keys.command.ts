import type { ApiKeyEntity } from '../auth/api-key.entity.js';
import type { ApiKeysService } from '../auth/api-keys.service.js';
import { isPlan, PLANS, quotaFor } from '../auth/plans.js';
import {
  type Command,
  type CommandContext,
  optionString,
  parseIntegerArg,
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
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt ? key.revokedAt.toISOString() : null,
  };
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => row[i].length)),
  );
  return [header, ...rows].map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
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
    json: { type: 'boolean' },
  },
  synopsis: `--plan ${PLANS.join('|')} [--name LABEL] [--per-minute N] [--per-day N] [--json]`,
  description:
    'Create an API key and print it once, as the last line (--json: one object with "key").\n' +
    'Enterprise keys need --per-minute and --per-day; the other plans may override their limits.',
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

    const { key, rawKey } = await (await apiKeys(ctx)).create({ plan, name, perMinute, perDay });
    const summary = keySummary(key);
    if (options.json) {
      const { revokedAt: _revokedAt, ...created } = summary;
      ctx.out(JSON.stringify({ ...created, key: rawKey }));
      return;
    }
    ctx.out(
      `Created API key ${key.id} (${key.keyPrefix}) on the ${plan} plan: ${summary.perMinute}/minute, ` +
        `${summary.perDay}/day, environment ${key.environment}.`,
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
    'List API keys with their limits and state (raw keys are never stored, so never shown).',
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
      'CREATED',
      'REVOKED',
    ];
    const rows = keys.map((key) => [
      String(key.id),
      key.prefix,
      key.name ?? '-',
      key.plan,
      String(key.perMinute),
      String(key.perDay),
      key.environment,
      key.createdAt,
      key.revokedAt ?? '-',
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

export const KEYS_COMMANDS: readonly Command[] = [createKey, listKeys, revokeKey];
