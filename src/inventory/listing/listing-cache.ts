import { Injectable } from '@nestjs/common';
import { isUnanswered } from '../../database/database-errors.js';
import { InventoryRepository } from '../writes/inventory.repository.js';
import { InventoryListing } from './inventory-listing.js';

/**
 * The listing, serialised once per value of the database's write counter, which every change to
 * `pets` and every hold begun or ended bumps whichever instance or process wrote: a write
 * acknowledged anywhere is listed next. A hold ending by time bumps nothing: the listing is kept
 * only until the first of its holds ends.
 */
@Injectable()
export class ListingCache {
  private cached: InventoryListing | undefined;
  private building: Promise<InventoryListing> | undefined;
  private nextRead: Promise<bigint> | undefined;
  /** The read in flight, settling with its failure: the callers waiting share an unanswered one. */
  private reading: Promise<unknown> | undefined;

  constructor(private readonly repository: InventoryRepository) {}

  async listing(): Promise<InventoryListing> {
    const seen = await this.version();
    const now = this.repository.clock.now();
    if (this.cached?.version === seen && this.cached.validAt(now)) return this.cached;
    // At most twice: a build already running may predate `seen`; one begun now cannot (and so
    // stands also when the counter went back: the database was replaced).
    for (;;) {
      const joined = this.building;
      const listing = await (joined ?? this.rebuild());
      if (!joined || (listing.version >= seen && listing.validAt(now))) return listing;
    }
  }

  /**
   * Read after the current turn of the event loop, so its callers share one read that begins
   * after all of them arrived and includes every write acknowledged before they were sent.
   */
  private version(): Promise<bigint> {
    this.nextRead ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.reading)
      .then((failure) => {
        this.nextRead = undefined;
        if (failure !== undefined && isUnanswered(failure)) throw failure;
        const read = this.repository.version();
        const settled: Promise<unknown> = read
          .then(
            () => undefined,
            (err: unknown) => err,
          )
          .finally(() => {
            if (this.reading === settled) this.reading = undefined;
          });
        this.reading = settled;
        return read;
      });
    return this.nextRead;
  }

  private rebuild(): Promise<InventoryListing> {
    const building = this.repository
      .snapshot()
      .then(({ version, rows, until }) => {
        const listing = new InventoryListing(version, rows, until);
        this.cached = listing;
        return listing;
      })
      .finally(() => {
        if (this.building === building) this.building = undefined;
      });
    this.building = building;
    return building;
  }
}
