import { beforeEach, describe, expect, it } from 'vitest';
import { InventoryService } from '../inventory.service.js';
import type { InventoryRow } from '../inventory-row.js';
import { nextStatus } from '../pet-status.js';
import type { InventoryRepository } from '../writes/inventory.repository.js';
import type { StockWrite, WriteOutcome } from '../writes/stock-write.js';
import { serialiseChunk } from './inventory-listing.js';
import { ListingCache } from './listing-cache.js';
import type { ListingReader } from './listing-reader.js';

interface QuantityUpdate {
  row: InventoryRow | undefined;
  version?: bigint;
}

/**
 * A database in memory with the write counter of the real one. `exact` says whether updates
 * report the counter they produced, `logged` whether it logs which pet each version changed
 * (SQLite does both, PostgreSQL neither).
 */
class FakeInventory {
  rows: InventoryRow[] = [
    { petId: '1', quantity: 5, status: 'available' },
    { petId: '2', quantity: 2, status: 'pending' },
    { petId: '3', quantity: 0, status: 'sold' },
  ];
  version = 10n;
  snapshots = 0;
  exact = true;
  logged = false;
  /** Which pet each version changed. */
  readonly log = new Map<bigint, string>();
  /** When set, snapshots wait for it: a slow read of a large table. */
  gate: Promise<void> | undefined;

  versionReads = 0;

  readonly listing: ListingReader = {
    version: async () => {
      this.versionReads++;
      return this.version;
    },
    snapshot: async (build) => {
      this.snapshots++;
      const version = this.version;
      const rows = this.rows.map((row) => ({ ...row }));
      await this.gate;
      async function* chunks() {
        for (let i = 0; i < rows.length; i += 2) yield serialiseChunk(rows.slice(i, i + 2));
      }
      return build(version, chunks());
    },
    changesSince: async (since, max) => {
      const ahead = this.version - since;
      if (!this.logged || ahead < 0n || ahead > BigInt(max)) return undefined;
      const entries = [...this.log].filter(([version]) => version > since);
      if (BigInt(entries.length) !== ahead) return undefined;
      const ids = new Set(entries.map(([, petId]) => petId));
      const rows = this.rows.filter((row) => ids.has(row.petId)).map((row) => ({ ...row }));
      return rows.length === ids.size ? { version: this.version, rows } : undefined;
    },
    close: async () => undefined,
  };

  /** A pet removed by another instance or tool. */
  remove(petId: string): void {
    this.rows = this.rows.filter((row) => row.petId !== petId);
    this.log.set(++this.version, petId);
  }

  /** A write through another instance or tool. */
  writeElsewhere(petId: string, quantity: number): QuantityUpdate {
    const index = this.rows.findIndex((row) => row.petId === petId);
    if (index < 0) return { row: undefined };
    const row = { petId, quantity, status: nextStatus(this.rows[index].status, quantity) };
    this.rows[index] = row;
    this.log.set(++this.version, petId);
    return { row: { ...row }, version: this.version };
  }

  async find(petId: bigint): Promise<InventoryRow | undefined> {
    return this.rows.find((row) => row.petId === String(petId));
  }

  async write(request: StockWrite): Promise<WriteOutcome> {
    const update = this.writeElsewhere(String(request.petId), request.quantity);
    if (!update.row) return { kind: 'not_found' };
    return { kind: 'written', row: update.row, version: this.exact ? update.version : undefined };
  }
}

const update = (service: InventoryService, petId: bigint, quantity: number) =>
  service.updateInventory(petId, { quantity }, undefined, { keyId: null, requestId: null });

const listed = async (service: InventoryService) =>
  JSON.parse((await service.listInventory()).body.toString());

describe('ListingCache through InventoryService', () => {
  let db: FakeInventory;
  let service: InventoryService;

  beforeEach(() => {
    db = new FakeInventory();
    const repository = db as unknown as InventoryRepository;
    service = new InventoryService(repository, new ListingCache(repository));
  });

  it('should read the table once per database state', async () => {
    const first = await service.listInventory();
    for (let i = 0; i < 5; i++) expect(await service.listInventory()).toBe(first);
    expect(db.snapshots).toBe(1);
  });

  it('should read the table again after a write made elsewhere, where no log tells which pet it changed', async () => {
    await service.listInventory();
    db.writeElsewhere('2', 0);
    expect((await listed(service))[1]).toEqual({ petId: 2, quantity: 0, status: 'sold' });
    expect(db.snapshots).toBe(2);
  });

  it('should list its own writes without reading the table again', async () => {
    await service.listInventory();
    await update(service, 1n, 0);
    await update(service, 3n, 4);
    expect(await listed(service)).toEqual([
      { petId: 1, quantity: 0, status: 'sold' },
      { petId: 2, quantity: 2, status: 'pending' },
      { petId: 3, quantity: 4, status: 'available' },
    ]);
    expect(db.snapshots).toBe(1);
  });

  it('should apply a few writes made elsewhere from the change log, without reading the table', async () => {
    db.logged = true;
    await service.listInventory();
    db.writeElsewhere('2', 0);
    db.writeElsewhere('3', 6);
    db.writeElsewhere('2', 4);
    expect(await listed(service)).toEqual([
      { petId: 1, quantity: 5, status: 'available' },
      { petId: 2, quantity: 4, status: 'available' },
      { petId: 3, quantity: 6, status: 'available' },
    ]);
    await update(service, 1n, 1);
    db.writeElsewhere('3', 0);
    expect((await listed(service)).map((item: { quantity: number }) => item.quantity)).toEqual([
      1, 4, 0,
    ]);
    expect(db.snapshots).toBe(1);
  });

  it('should read the table when the change log cannot tell: a removed pet, or too many writes', async () => {
    db.logged = true;
    await service.listInventory();
    db.remove('2');
    expect((await listed(service)).map((item: { petId: number }) => item.petId)).toEqual([1, 3]);
    expect(db.snapshots).toBe(2);
    for (let i = 0; i < 65; i++) db.writeElsewhere('1', i);
    expect((await listed(service))[0].quantity).toBe(64);
    expect(db.snapshots).toBe(3);
    db.writeElsewhere('3', 2);
    db.writeElsewhere('1', 9);
    // Pruned: the log no longer reaches back to the cached state.
    db.log.delete(db.version - 1n);
    expect((await listed(service)).map((item: { quantity: number }) => item.quantity)).toEqual([
      9, 2,
    ]);
    expect(db.snapshots).toBe(4);
  });

  it('should read the table when a write made elsewhere sits between its own', async () => {
    await service.listInventory();
    await update(service, 1n, 7);
    db.writeElsewhere('2', 9);
    await update(service, 3n, 1);
    expect((await listed(service)).map((item: { quantity: number }) => item.quantity)).toEqual([
      7, 9, 1,
    ]);
    expect(db.snapshots).toBe(2);
  });

  it('should read the table after its own writes when the database does not report their counter', async () => {
    db.exact = false;
    await service.listInventory();
    await update(service, 1n, 8);
    expect((await listed(service))[0].quantity).toBe(8);
    expect(db.snapshots).toBe(2);
  });

  it('should share one read among concurrent requests', async () => {
    let open!: () => void;
    db.gate = new Promise((resolve) => (open = resolve));
    const pending = Array.from({ length: 10 }, () => service.listInventory());
    open();
    const listings = await Promise.all(pending);
    expect(new Set(listings).size).toBe(1);
    expect(db.snapshots).toBe(1);
  });

  it('should not answer with a read that began before the state a request saw', async () => {
    let open!: () => void;
    db.gate = new Promise((resolve) => (open = resolve));
    const early = service.listInventory();
    await new Promise((resolve) => setImmediate(resolve));
    db.writeElsewhere('1', 3);
    const late = service.listInventory();
    open();
    db.gate = undefined;
    expect((await listed(service))[0].quantity).toBe(3);
    expect(JSON.parse((await late).body.toString())[0].quantity).toBe(3);
    expect(JSON.parse((await early).body.toString())[0].quantity).toBe(5);
  });

  it('should let the calls of one turn of the event loop share a read of the counter, and no later call', async () => {
    await Promise.all([service.listInventory(), service.listInventory(), service.listInventory()]);
    expect(db.versionReads).toBe(1);
    // Made after that read began (a client that saw the write acknowledged asks again): a new read.
    db.writeElsewhere('1', 0);
    expect((await listed(service))[0].quantity).toBe(0);
    expect(db.versionReads).toBe(2);
  });

  it('should start over when the counter goes back (the database was replaced)', async () => {
    await service.listInventory();
    db.rows = [{ petId: '4', quantity: 1, status: 'available' }];
    db.version = 1n;
    expect(await listed(service)).toEqual([{ petId: 4, quantity: 1, status: 'available' }]);
    expect(await listed(service)).toEqual([{ petId: 4, quantity: 1, status: 'available' }]);
    expect(db.snapshots).toBe(2);
  });
});
