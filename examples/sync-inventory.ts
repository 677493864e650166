/**
 * Keeps a local copy of the inventory current through the change feed: list once, then follow
 * the cursor, polling while caught up. A consumer imports '@petstore/inventory-client'.
 *
 *   PETSTORE_BASE_URL=http://localhost:3000/v1 PETSTORE_API_KEY=pk_test_… npx tsx examples/sync-inventory.ts
 */
import { ApiError, createClient, type InventoryItem } from '../client/src/index.js';

const baseUrl = process.env.PETSTORE_BASE_URL ?? 'http://localhost:3000/v1';
const apiKey = process.env.PETSTORE_API_KEY;
const POLL_MS = 5_000;

const client = createClient({ baseUrl, apiKey });
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());

// The feed records stock changes, not holds: `available` is read from the listing, not kept here.
const stock = new Map<bigint, Omit<InventoryItem, 'available'>>();

/** The whole inventory, and the cursor from which the feed holds what the listing does not. */
async function load(): Promise<string | undefined> {
  const listing = await client.inventory.list({ signal: stop.signal });
  stock.clear();
  for (const { petId, quantity, status } of listing) stock.set(petId, { petId, quantity, status });
  console.log(`Loaded ${stock.size} items`);
  return listing.changesCursor;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    stop.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

async function main(): Promise<void> {
  let cursor = await load();
  while (!stop.signal.aborted) {
    const feed = client.inventory.changes({ after: cursor, signal: stop.signal });
    try {
      for await (const change of feed) {
        stock.set(change.petId, {
          petId: change.petId,
          quantity: change.quantity,
          status: change.status,
        });
        cursor = feed.cursor;
        console.log(
          `pet ${change.petId}: ${change.previousQuantity ?? '-'} -> ${change.quantity} (${change.status})`,
        );
      }
      cursor = feed.cursor;
    } catch (err) {
      // The cursor is older than the changes kept: start again from a fresh listing.
      if (err instanceof ApiError && err.code === 'gone') cursor = await load();
      else throw err;
    }
    await pause(POLL_MS);
  }
}

main().catch((err: unknown) => {
  if (stop.signal.aborted) return;
  console.error(err);
  process.exitCode = 1;
});
