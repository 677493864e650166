/**
 * A webhook receiver for `inventory.changed`: verifies each message with the `standardwebhooks`
 * package, drops the ones it already handled (same `webhook-id`), and answers 2xx at once.
 *
 *   WEBHOOK_ALLOW_LOOPBACK=true npm run --silent cli -- webhooks add http://localhost:8080/    # prints the secret last
 *   WEBHOOK_SECRET=whsec_… PORT=8080 npx tsx examples/webhook-receiver.ts
 *
 * A receiver on localhost over http needs WEBHOOK_ALLOW_LOOPBACK=true for both the CLI and the
 * server (`WEBHOOK_ALLOW_LOOPBACK=true npm start`; docs/webhooks.md#receiving).
 *
 * The service retries until it gets a 2xx, so a message can arrive more than once: deduplicate on
 * `webhook-id` (here in memory; in production, a unique key in the same transaction as the work).
 * Messages arrive in feed order per endpoint; the next is sent only after this one was accepted.
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { isSafeNumber, parse } from 'lossless-json';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export interface InventoryChange {
  id: bigint;
  petId: bigint;
  previousQuantity: number | null;
  quantity: number;
  previousStatus: string | null;
  status: string;
  reason: string | null;
  reference: string | null;
  source: 'api' | 'import';
  keyId: number | null;
  requestId: string | null;
  changedAt: string;
}

interface InventoryChanged {
  type: 'inventory.changed';
  timestamp: string;
  data: InventoryChange;
}

const MAX_BODY_BYTES = 64 * 1024;
const REMEMBERED_IDS = 100_000;

/** An http.Server that calls `onChange` once per change, for verified messages only. */
export function createWebhookReceiver(
  secret: string,
  onChange: (change: InventoryChange, webhookId: string) => Promise<void> | void,
): http.Server {
  const webhook = new Webhook(secret);
  const handled = new Set<string>();

  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      try {
        // Checks the signature against the raw body, and that the timestamp is within 5 minutes.
        webhook.verify(body, headers, { jsonParse: false });
      } catch (err) {
        if (!(err instanceof WebhookVerificationError)) throw err;
        res.writeHead(400).end();
        return;
      }
      const webhookId = headers['webhook-id'];
      if (!handled.has(webhookId)) {
        // Ids above 2^53 stay exact: integers become bigint when a number would round them.
        const event = parse(body, null, (text) =>
          isSafeNumber(text) ? Number(text) : BigInt(text),
        ) as InventoryChanged;
        const change = {
          ...event.data,
          id: BigInt(event.data.id),
          petId: BigInt(event.data.petId),
        };
        try {
          if (event.type === 'inventory.changed') await onChange(change, webhookId);
        } catch {
          res.writeHead(500).end();
          return;
        }
        if (handled.size >= REMEMBERED_IDS) handled.delete(handled.values().next().value!);
        handled.add(webhookId);
      }
      res.writeHead(204).end();
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('Set WEBHOOK_SECRET to the secret `webhooks add` printed');
  const port = Number(process.env.PORT ?? 8080);
  createWebhookReceiver(secret, (change) => {
    console.log(
      `pet ${change.petId}: ${change.previousQuantity ?? '-'} -> ${change.quantity} (${change.status})`,
    );
  }).listen(port, () => console.log(`Listening on http://localhost:${port}/`));
}
