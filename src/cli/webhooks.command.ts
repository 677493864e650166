import { GRACE, parseKeyDuration } from '../auth/key-duration.js';
import type { EndpointRow } from '../webhooks/webhook.repository.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import {
  type Command,
  type CommandContext,
  optionString,
  parseIntegerArg,
  table,
  UsageError,
} from './command.js';

const MAX_ID = 2_147_483_647;
const MAX_DESCRIPTION = 255;

async function webhooks(ctx: CommandContext): Promise<WebhooksService> {
  const service = await import('../webhooks/webhooks.service.js');
  return ctx.get(service.WebhooksService);
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

async function endpointSummary(endpoint: EndpointRow) {
  const { encodeCursor } = await import('../inventory/history/change-cursor.js');
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    enabled: endpoint.disabledAt === null,
    disabledAt: iso(endpoint.disabledAt),
    disabledReason: endpoint.disabledReason,
    cursor: encodeCursor(endpoint.cursor),
    failures: endpoint.failures,
    nextAttemptAt: iso(endpoint.nextAttemptAt),
    previousSecretUntil:
      endpoint.previousSecret !== null &&
      endpoint.previousSecretUntil !== null &&
      endpoint.previousSecretUntil > Date.now()
        ? iso(endpoint.previousSecretUntil)
        : null,
    createdAt: iso(endpoint.createdAt)!,
  };
}

function endpointId(value: string): number {
  return parseIntegerArg('ID', value, 1, MAX_ID);
}

const addWebhook: Command = {
  path: ['webhooks', 'add'],
  args: ['URL'],
  options: { description: { type: 'string' }, json: { type: 'boolean' } },
  synopsis: '[--description TEXT] [--json]',
  description:
    'Add an endpoint that receives every change committed from now on (inventory.changed), and\n' +
    'print its signing secret once, as the last line (--json: one object with "secret"). The URL\n' +
    'must be https and must not resolve to a loopback, private, link-local or metadata address,\n' +
    'unless WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE or WEBHOOK_ALLOW_LOOPBACK (which lets\n' +
    'http://localhost:PORT/ in) allow it; set the same value for the server.',
  async run(ctx, { args, options }) {
    const description = optionString(options, 'description');
    if (
      description !== undefined &&
      (description.trim() === '' || description.length > MAX_DESCRIPTION)
    )
      throw new UsageError(`--description must be 1 to ${MAX_DESCRIPTION} characters`);
    const [service, { WebhookUrlError }] = await Promise.all([
      webhooks(ctx),
      import('../webhooks/address-policy.js'),
    ]);
    let added;
    try {
      added = await service.add(args.URL, description);
    } catch (err) {
      if (err instanceof WebhookUrlError) throw new UsageError(err.message, { showUsage: false });
      throw err;
    }
    const summary = await endpointSummary(added.endpoint);
    if (options.json) {
      ctx.out(JSON.stringify({ ...summary, secret: added.secret }));
      return;
    }
    ctx.out(
      `Added webhook endpoint ${summary.id} for ${summary.url}; it receives changes after ${summary.cursor}.`,
    );
    ctx.out('Store the signing secret now; it cannot be shown again:');
    ctx.out(added.secret);
  },
};

const listWebhooks: Command = {
  path: ['webhooks', 'list'],
  args: [],
  options: { json: { type: 'boolean' } },
  synopsis: '[--json]',
  description:
    'List webhook endpoints, their state and position in the feed (secrets are never shown).',
  async run(ctx, { options }) {
    const endpoints = await Promise.all((await (await webhooks(ctx)).list()).map(endpointSummary));
    if (options.json) {
      ctx.out(JSON.stringify(endpoints));
      return;
    }
    if (endpoints.length === 0) {
      ctx.out('No webhook endpoints.');
      return;
    }
    const header = [
      'ID',
      'URL',
      'DESCRIPTION',
      'STATE',
      'CURSOR',
      'FAILURES',
      'NEXT ATTEMPT',
      'OLD SECRET UNTIL',
      'CREATED',
    ];
    const rows = endpoints.map((e) => [
      String(e.id),
      e.url,
      e.description ?? '-',
      e.enabled ? 'enabled' : `disabled: ${e.disabledReason ?? ''}`,
      e.cursor,
      String(e.failures),
      e.nextAttemptAt ?? '-',
      e.previousSecretUntil ?? '-',
      e.createdAt,
    ]);
    for (const line of table(header, rows)) ctx.out(line);
  },
};

const removeWebhook: Command = {
  path: ['webhooks', 'remove'],
  args: ['ID'],
  options: {},
  synopsis: '',
  description: 'Remove an endpoint and its delivery log; deliveries to it stop within a second.',
  async run(ctx, { args }) {
    const id = endpointId(args.ID);
    await (await webhooks(ctx)).remove(id);
    ctx.out(`Removed webhook endpoint ${id}.`);
  },
};

const enableWebhook: Command = {
  path: ['webhooks', 'enable'],
  args: ['ID'],
  options: {},
  synopsis: '',
  description:
    'Enable an endpoint that was disabled (retries exhausted, or it answered 410): delivery resumes\n' +
    'at the change it stopped on, with a fresh retry schedule. An endpoint waiting for a retry\n' +
    'tries again at once.',
  async run(ctx, { args }) {
    const id = endpointId(args.ID);
    const endpoint = await endpointSummary(await (await webhooks(ctx)).enable(id));
    ctx.out(`Enabled webhook endpoint ${id}; delivery resumes after ${endpoint.cursor}.`);
  },
};

const rollSecret: Command = {
  path: ['webhooks', 'roll-secret'],
  args: ['ID'],
  options: { grace: { type: 'string' }, json: { type: 'boolean' } },
  synopsis: '[--grace <N>h] [--json]',
  description:
    'Give an endpoint a new signing secret, printed once as the last line. Until the grace ends\n' +
    '(default 24h; 0h drops the old secret at once) every message carries both signatures.',
  async run(ctx, { args, options }) {
    const id = endpointId(args.ID);
    const graceMs = parseKeyDuration(optionString(options, 'grace') ?? '24h', GRACE);
    if (typeof graceMs !== 'number') throw new UsageError(`--grace ${graceMs.error}`);
    const { secret, previousUntil } = await (await webhooks(ctx)).rollSecret(id, graceMs);
    if (options.json) {
      ctx.out(JSON.stringify({ id, secret, previousSecretUntil: iso(previousUntil) }));
      return;
    }
    ctx.out(
      `Rolled the signing secret of webhook endpoint ${id}; the old one also signs until ${iso(previousUntil)}.`,
    );
    ctx.out('Store the new secret now; it cannot be shown again:');
    ctx.out(secret);
  },
};

const listDeliveries: Command = {
  path: ['webhooks', 'deliveries'],
  args: ['ID'],
  options: { limit: { type: 'string' }, json: { type: 'boolean' } },
  synopsis: '[--limit N] [--json]',
  description:
    'Show the latest delivery attempts to an endpoint, newest first (default 20, at most 1000).',
  async run(ctx, { args, options }) {
    const id = endpointId(args.ID);
    const limitText = optionString(options, 'limit');
    const limit = limitText === undefined ? 20 : parseIntegerArg('--limit', limitText, 1, 1000);
    const rows = await (await webhooks(ctx)).deliveries(id, limit);
    const attempts = rows.map((row) => ({
      changeId: row.changeId,
      attempt: row.attempt,
      status: row.status,
      durationMs: row.durationMs,
      error: row.error,
      attemptedAt: iso(row.attemptedAt)!,
    }));
    if (options.json) {
      ctx.out(
        `[${attempts.map((a) => JSON.stringify(a).replace(`"changeId":"${a.changeId}"`, `"changeId":${a.changeId}`)).join(',')}]`,
      );
      return;
    }
    if (attempts.length === 0) {
      ctx.out(`No delivery attempts to webhook endpoint ${id} yet.`);
      return;
    }
    const header = ['ATTEMPTED', 'CHANGE', 'ATTEMPT', 'STATUS', 'DURATION', 'ERROR'];
    const lines = attempts.map((a) => [
      a.attemptedAt,
      a.changeId,
      String(a.attempt),
      a.status === null ? '-' : String(a.status),
      `${a.durationMs} ms`,
      a.error ?? '-',
    ]);
    for (const line of table(header, lines)) ctx.out(line);
  },
};

const replay: Command = {
  path: ['webhooks', 'replay'],
  args: ['ID'],
  options: { after: { type: 'string' } },
  synopsis: '--after CURSOR',
  description:
    'Send again, in order, every kept change after a feed cursor (from GET /v1/inventory/changes,\n' +
    'X-Changes-Cursor or webhooks list); then the endpoint carries on with new changes. Messages\n' +
    'keep their webhook-id, so receivers that deduplicate skip what they already have.',
  async run(ctx, { args, options }) {
    const id = endpointId(args.ID);
    const after = optionString(options, 'after');
    if (after === undefined) throw new UsageError('--after CURSOR is required');
    const { decodeCursor } = await import('../inventory/history/change-cursor.js');
    let position: bigint;
    try {
      position = decodeCursor(after);
    } catch {
      throw new UsageError('--after must be a cursor the change feed returned');
    }
    const endpoint = await (await webhooks(ctx)).replay(id, position);
    ctx.out(
      `Webhook endpoint ${id} replays the changes after ${after}` +
        (endpoint.disabledAt === null ? '.' : ' once enabled (it is disabled: webhooks enable).'),
    );
  },
};

export const WEBHOOKS_COMMANDS: readonly Command[] = [
  addWebhook,
  listWebhooks,
  removeWebhook,
  enableWebhook,
  rollSecret,
  listDeliveries,
  replay,
];
