import { Injectable } from '@nestjs/common';
import type { InventoryRow } from '../inventory-row.js';
import { InventoryRepository } from '../writes/inventory.repository.js';
import { InventoryListing } from './inventory-listing.js';

/** Rows of this instance's writes kept for the listing; beyond, the next GET reads the table. */
const MAX_LOCAL_WRITES = 10_000;
/**
 * Writes made elsewhere that a GET applies to the cached listing; beyond, it reads the table,
 * which yields to the event loop between chunks where re-serialising many chunks would not.
 */
const MAX_CHANGES_APPLIED = 64;

/**
 * The listing, serialised once per database state. Every call first has the database's write
 * counter read, which each change to `pets` bumps in its own transaction, whichever instance
 * or tool wrote: a write acknowledged by any instance sharing the database is listed by the
 * next request here. When the counter moved only by this instance's own updates, their rows are
 * applied to the cached listing; so are a few changes made elsewhere, which the stock history
 * names. Anything else reads the table again.
 */
@Injectable()
export class ListingCache {
  private cached: InventoryListing | undefined;
  private building: Promise<InventoryListing> | undefined;
  /** The counter read that callers of this turn of the event loop share. */
  private nextRead: Promise<bigint> | undefined;
  /** The read under way: the next one waits for it, and serves every caller that came meanwhile. */
  private reading: Promise<bigint> | undefined;
  /** What this instance wrote after the cached state, by the write counter each write produced. */
  private readonly localWrites = new Map<bigint, InventoryRow>();

  constructor(private readonly repository: InventoryRepository) {}

  async listing(): Promise<InventoryListing> {
    const seen = await this.version();
    const cached = this.cached;
    if (cached?.version === seen) return cached;
    if (cached && seen > cached.version) {
      const updated =
        this.applyLocalWrites(cached, seen) ?? (await this.applyChanges(cached, seen));
      if (updated) return updated;
    }
    if (cached && seen < cached.version) this.forget();
    // At most twice: a read already running may predate `seen`; the next one cannot.
    for (;;) {
      const listing = await (this.building ?? this.rebuild());
      if (listing.version >= seen) return listing;
    }
  }

  /** A change this instance committed, as the counter value it produced. */
  noteWrite(version: bigint, row: InventoryRow): void {
    if (this.cached && version <= this.cached.version) return;
    if (this.localWrites.size >= MAX_LOCAL_WRITES) this.localWrites.clear();
    this.localWrites.set(version, row);
  }

  /**
   * The counter, read once the event loop has run the callbacks of the turn it was asked for
   * in: callers of one turn share a read (a read transaction's locks cost about as much as the
   * rest of a cached GET), and each read begins after every caller it serves arrived, so it
   * includes every write acknowledged before their requests were sent. One read at a time: on
   * PostgreSQL, callers arriving during a round trip share the next read instead of each turn
   * taking a connection of its own.
   */
  private version(): Promise<bigint> {
    this.nextRead ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.reading?.catch(() => undefined))
      .then(() => {
        this.nextRead = undefined;
        const read = this.repository.listing.version();
        this.reading = read;
        return read;
      });
    return this.nextRead;
  }

  private applyLocalWrites(cached: InventoryListing, seen: bigint): InventoryListing | undefined {
    if (seen - cached.version > BigInt(this.localWrites.size)) return undefined;
    const rows: InventoryRow[] = [];
    for (let version = cached.version + 1n; version <= seen; version++) {
      const row = this.localWrites.get(version);
      if (!row) return undefined;
      rows.push(row);
    }
    const updated = cached.withUpdates(seen, rows);
    if (updated) this.keep(updated);
    return updated;
  }

  private async applyChanges(
    cached: InventoryListing,
    seen: bigint,
  ): Promise<InventoryListing | undefined> {
    const changes = await this.repository.listing.changesSince(cached.version, MAX_CHANGES_APPLIED);
    if (!changes || changes.version < seen) return undefined;
    const updated = cached.withUpdates(changes.version, changes.rows);
    if (updated) this.keep(updated);
    return updated;
  }

  private rebuild(): Promise<InventoryListing> {
    const building = this.repository.listing
      .snapshot((version, chunks) => InventoryListing.build(version, chunks))
      .then((listing) => {
        this.keep(listing);
        return listing;
      })
      .finally(() => {
        if (this.building === building) this.building = undefined;
      });
    this.building = building;
    return building;
  }

  private keep(listing: InventoryListing): void {
    if (this.cached && listing.version <= this.cached.version) return;
    this.cached = listing;
    for (const version of this.localWrites.keys())
      if (version <= listing.version) this.localWrites.delete(version);
  }

  /** The counter went back: the database was replaced under the running service. */
  private forget(): void {
    this.cached = undefined;
    this.localWrites.clear();
  }
}
