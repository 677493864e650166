import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors/api-error.js';
import { arrivalsSoFar } from '../common/http/request-observers.js';
import type { InventoryItem } from './dto/inventory-item.dto.js';
import { InventoryListing } from './inventory-listing.js';
import { InventoryRepository, type InventoryRow } from './inventory.repository.js';

/** Rows of this instance's writes kept for the listing; beyond, the next GET reads the table. */
const MAX_LOCAL_WRITES = 10_000;
/**
 * Writes made elsewhere that a GET applies to the cached listing; beyond, it reads the table,
 * which yields to the event loop between chunks where re-serialising many chunks would not.
 */
const MAX_CHANGES_APPLIED = 64;

@Injectable()
export class InventoryService {
  private cached: InventoryListing | undefined;
  private building: Promise<InventoryListing> | undefined;
  /** The latest read of the write counter; `after` is set when it begins, to the requests numbered up to then. */
  private lastRead: { after?: number; version: Promise<bigint> } | undefined;
  /** What this instance wrote after the cached state, by the write counter each write produced. */
  private readonly localWrites = new Map<bigint, InventoryRow>();

  constructor(private readonly repository: InventoryRepository) {}

  /**
   * The listing, serialised once per database state, as of a moment after the request numbered
   * `arrival` came in. Every call first has the database's write counter read (versionFor),
   * which each change to `pets` bumps in its own transaction (a trigger, whichever instance or
   * tool wrote): one read of one row instead of the table, and a write acknowledged by any
   * instance sharing the database is listed by the next request here. A
   * cheaper signal (LISTEN/NOTIFY, a timer) would let such a write go unseen for a while, and
   * a client that updated stock and then listed it could see its old figure.
   * When the counter moved only by this instance's own updates, their rows are applied to the
   * cached listing; so are a few changes made elsewhere, where the database logs which pets
   * they touched (SQLite). Anything else reads the table again.
   */
  async listInventory(arrival = Infinity): Promise<InventoryListing> {
    const seen = await this.versionFor(arrival);
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

  async updateInventory(petId: bigint, quantity: number): Promise<InventoryItem> {
    const { row, version } = await this.repository.setQuantity(petId, quantity);
    if (!row) throw new NotFoundError(`No pet with id ${petId}`);
    if (version !== undefined && !(this.cached && version <= this.cached.version)) {
      if (this.localWrites.size >= MAX_LOCAL_WRITES) this.localWrites.clear();
      this.localWrites.set(version, row);
    }
    return { petId: BigInt(row.petId), quantity: Number(row.quantity), status: row.status };
  }

  /**
   * The write counter as read after the request numbered `arrival` came in. A read begins once
   * the event loop has run the I/O callbacks of the turn it was asked for in, and serves every
   * request that arrived before it began: requests parsed together, or waiting together for
   * Redis or a database connection, share one read (on a SQLite file a read transaction's locks
   * cost about as much as the rest of a cached GET). Either way it includes every write
   * acknowledged before the request was sent.
   */
  private versionFor(arrival: number): Promise<bigint> {
    const last = this.lastRead;
    if (last && (last.after === undefined || last.after >= arrival)) return last.version;
    const read: { after?: number; version: Promise<bigint> } = {
      version: new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        read.after = arrivalsSoFar();
        return this.repository.listing.version();
      }),
    };
    this.lastRead = read;
    return read.version;
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
