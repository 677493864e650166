import { Injectable } from '@nestjs/common';
import type { InventoryRow } from '../inventory-row.js';
import { InventoryRepository } from '../writes/inventory.repository.js';
import { InventoryListing } from './inventory-listing.js';

const MAX_LOCAL_WRITES = 10_000;
const MAX_CHANGES_APPLIED = 64;

/**
 * The listing, serialised once per state of the database's write counter, which every change
 * to `pets` bumps whichever instance wrote: a write acknowledged anywhere is listed next here.
 */
@Injectable()
export class ListingCache {
  private cached: InventoryListing | undefined;
  private building: Promise<InventoryListing> | undefined;
  private nextRead: Promise<bigint> | undefined;
  private reading: Promise<bigint> | undefined;
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

  noteWrite(version: bigint, row: InventoryRow): void {
    if (this.cached && version <= this.cached.version) return;
    if (this.localWrites.size >= MAX_LOCAL_WRITES) this.localWrites.clear();
    this.localWrites.set(version, row);
  }

  /**
   * Read after the current turn of the event loop, so its callers share one read that begins
   * after all of them arrived and includes every write acknowledged before they were sent.
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
