import { createHash } from 'node:crypto';
import type { InventoryRow } from '../inventory-row.js';
import type { PetStatus } from '../pet-status.js';

export const LISTING_CHUNK_ROWS = 1000;

interface Chunk {
  first: bigint;
  last: bigint;
  json: Buffer;
  digest: Buffer;
  /** Where each pet's item starts, built when one is first looked up. */
  index?: ChunkIndex;
}

interface ChunkIndex {
  ids: BigInt64Array;
  starts: Uint32Array;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');
const CLOSE_ITEM = 0x7d; // }

// The ids are already exact decimal text.
export function inventoryItemsJson(rows: readonly InventoryRow[]): string {
  let json = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    json += `${i === 0 ? '' : ','}{"petId":${row.petId},"quantity":${row.quantity},"status":"${row.status}"}`;
  }
  return json;
}

export interface SerialisedChunk {
  firstId: string;
  lastId: string;
  json: string;
}

export function serialiseChunk(rows: readonly InventoryRow[]): SerialisedChunk {
  return {
    firstId: rows[0].petId,
    lastId: rows[rows.length - 1].petId,
    json: inventoryItemsJson(rows),
  };
}

function chunkOf({ firstId, lastId, json }: SerialisedChunk): Chunk {
  const bytes = Buffer.from(json, 'utf8');
  return {
    first: BigInt(firstId),
    last: BigInt(lastId),
    json: bytes,
    digest: createHash('sha256').update(bytes).digest(),
  };
}

const ITEM = /\{"petId":(\d+),"quantity":(\d+),"status":"(\w+)"\}/g;
const ONE_ITEM = /^\{"petId":(\d+),"quantity":(\d+),"status":"(\w+)"\}$/;

// Only the bytes are kept, not every row as an object beside them.
function rowsOf(chunk: Chunk): InventoryRow[] {
  return Array.from(
    chunk.json.toString('latin1').matchAll(ITEM),
    ([, petId, quantity, status]) => ({
      petId,
      quantity: Number(quantity),
      status: status as PetStatus,
    }),
  );
}

// Rather than a scan of the chunk's bytes for the pet, which was a visible share of a GET of one
// pet (docs/performance.md).
function indexed(chunk: Chunk): ChunkIndex {
  if (chunk.index) return chunk.index;
  const ids: bigint[] = [];
  const starts: number[] = [];
  for (const match of chunk.json.toString('latin1').matchAll(ITEM)) {
    ids.push(BigInt(match[1]));
    starts.push(match.index);
  }
  chunk.index = { ids: BigInt64Array.from(ids), starts: Uint32Array.from(starts) };
  return chunk.index;
}

/** Binary search of entries sorted by id, entry i covering first(i)..last(i); -1 if none covers id. */
function search(
  count: number,
  id: bigint,
  first: (i: number) => bigint,
  last: (i: number) => bigint = first,
): number {
  let low = 0;
  let high = count - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (id < first(mid)) high = mid - 1;
    else if (id > last(mid)) low = mid + 1;
    else return mid;
  }
  return -1;
}

function findChunk(chunks: readonly Chunk[], id: bigint): number {
  return search(
    chunks.length,
    id,
    (i) => chunks[i].first,
    (i) => chunks[i].last,
  );
}

/**
 * Kept in chunks so that a write re-serialises one chunk. Chunks are cut by position, so equal
 * listings carry equal ETags on every instance.
 */
export class InventoryListing {
  private constructor(
    readonly version: bigint,
    private readonly chunks: readonly Chunk[],
    readonly body: Buffer,
    /** A strong validator (RFC 9110 §8.8.3). */
    readonly etag: string,
  ) {}

  static async build(
    version: bigint,
    source: AsyncIterable<SerialisedChunk>,
  ): Promise<InventoryListing> {
    const chunks: Chunk[] = [];
    for await (const chunk of source) if (chunk.json !== '') chunks.push(chunkOf(chunk));
    return InventoryListing.of(version, chunks);
  }

  private static of(version: bigint, chunks: readonly Chunk[]): InventoryListing {
    const parts: Buffer[] = [OPEN];
    const hash = createHash('sha256');
    chunks.forEach((chunk, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(chunk.json);
      hash.update(chunk.digest);
    });
    parts.push(CLOSE);
    const body = Buffer.concat(parts);
    // The chunks keep views of the body rather than copies of their own: one copy of the bytes.
    let offset = OPEN.length;
    const views = chunks.map((chunk) => {
      const json = body.subarray(offset, offset + chunk.json.length);
      offset += chunk.json.length + COMMA.length;
      return { ...chunk, json };
    });
    return new InventoryListing(version, views, body, `"${hash.digest('base64url').slice(0, 22)}"`);
  }

  item(petId: bigint): InventoryRow | undefined {
    const at = findChunk(this.chunks, petId);
    if (at < 0) return undefined;
    const chunk = this.chunks[at];
    const { ids, starts } = indexed(chunk);
    const row = search(ids.length, petId, (i) => ids[i]);
    if (row < 0) return undefined;
    const start = starts[row];
    const end = chunk.json.indexOf(CLOSE_ITEM, start) + 1;
    const match = ONE_ITEM.exec(chunk.json.toString('latin1', start, end));
    if (!match) return undefined;
    return { petId: match[1], quantity: Number(match[2]), status: match[3] as PetStatus };
  }

  /** Undefined when a row's pet is not listed: then the table must be read. */
  withUpdates(version: bigint, rows: readonly InventoryRow[]): InventoryListing | undefined {
    const chunks = [...this.chunks];
    const changed = new Map<number, InventoryRow[]>();
    for (const row of rows) {
      const id = BigInt(row.petId);
      const at = findChunk(chunks, id);
      if (at < 0) return undefined;
      let copy = changed.get(at);
      if (!copy) changed.set(at, (copy = rowsOf(chunks[at])));
      const index = search(copy.length, id, (i) => BigInt(copy[i].petId));
      if (index < 0) return undefined;
      copy[index] = row;
    }
    for (const [at, copy] of changed) chunks[at] = chunkOf(serialiseChunk(copy));
    return InventoryListing.of(version, chunks);
  }
}
