import type { DataSource, EntityManager } from 'typeorm';
import { describe, expect, it, vi } from 'vitest';
import { savepoint, transaction } from './sql.js';

function fakeRunner(rollback: () => Promise<void>, type = 'postgres') {
  const runner = {
    isTransactionActive: false,
    isReleased: false,
    manager: {} as EntityManager,
    startTransaction: vi.fn(async () => {
      runner.isTransactionActive = true;
    }),
    commitTransaction: vi.fn(async () => {
      runner.isTransactionActive = false;
    }),
    rollbackTransaction: vi.fn(rollback),
    release: vi.fn(async () => {}),
    connect: vi.fn(async () => client),
  };
  const client = { end: vi.fn(async () => {}) };
  const dataSource = {
    options: { type },
    createQueryRunner: () => runner,
  } as unknown as DataSource;
  runner.manager = { queryRunner: runner, dataSource } as unknown as EntityManager;
  return { runner, client, dataSource };
}

describe('transaction', () => {
  it('should return the connection to the pool after a commit, and after a rollback', async () => {
    const ok = fakeRunner(async () => {});
    await expect(transaction(ok.dataSource, async () => 7, 'REPEATABLE READ')).resolves.toBe(7);
    expect(ok.runner.startTransaction).toHaveBeenCalledWith('REPEATABLE READ');
    expect(ok.runner.release).toHaveBeenCalledTimes(1);

    const failed = fakeRunner(async () => {});
    const boom = new Error('statement failed');
    await expect(transaction(failed.dataSource, () => Promise.reject(boom))).rejects.toBe(boom);
    expect(failed.runner.rollbackTransaction).toHaveBeenCalledTimes(1);
    expect(failed.runner.release).toHaveBeenCalledTimes(1);
    expect(failed.client.end).not.toHaveBeenCalled();
  });

  it('should close, not pool, a connection whose transaction could not be rolled back', async () => {
    const rollbackError = new Error('Query read timeout');
    const { runner, client, dataSource } = fakeRunner(() => Promise.reject(rollbackError));
    const boom = new Error('deadlock detected');
    await expect(transaction(dataSource, () => Promise.reject(boom))).rejects.toBe(boom);
    expect(runner.rollbackTransaction).toHaveBeenCalledTimes(1);
    // Ended before it goes back, so the pool drops it rather than hand it out again.
    expect(client.end).toHaveBeenCalledTimes(1);
    expect(client.end.mock.invocationCallOrder[0]).toBeLessThan(
      runner.release.mock.invocationCallOrder[0],
    );
  });

  it('should close a connection that timed out or broke without waiting on a ROLLBACK', async () => {
    const { runner, client, dataSource } = fakeRunner(async () => {});
    const timedOut = new Error('Query read timeout');
    await expect(transaction(dataSource, () => Promise.reject(timedOut))).rejects.toBe(timedOut);
    expect(runner.rollbackTransaction).not.toHaveBeenCalled();
    expect(client.end).toHaveBeenCalledTimes(1);
    expect(runner.release).toHaveBeenCalledTimes(1);
  });
});

describe('savepoint', () => {
  it('should release the savepoint after its work, and roll back to it when a statement fails', async () => {
    const { runner, dataSource } = fakeRunner(async () => {});
    const inner = transaction(dataSource, (manager) => savepoint(manager, async () => 'done'));
    await expect(inner).resolves.toBe('done');
    expect(runner.startTransaction).toHaveBeenCalledTimes(2);
    expect(runner.commitTransaction).toHaveBeenCalledTimes(2);

    const refused = fakeRunner(async () => {});
    const violation = Object.assign(new Error('violates check constraint'), { code: '23514' });
    await expect(savepoint(refused.runner.manager, () => Promise.reject(violation))).rejects.toBe(
      violation,
    );
    expect(refused.runner.rollbackTransaction).toHaveBeenCalledTimes(1);
    expect(refused.runner.commitTransaction).not.toHaveBeenCalled();
  });

  it('should send no ROLLBACK TO SAVEPOINT on a PostgreSQL connection that stopped answering', async () => {
    const { runner, client, dataSource } = fakeRunner(async () => {});
    const timedOut = new Error('Query read timeout');
    const outer = transaction(dataSource, (manager) =>
      savepoint(manager, () => Promise.reject(timedOut)),
    );
    await expect(outer).rejects.toBe(timedOut);
    // Neither the savepoint nor the transaction waits on that connection: it is closed.
    expect(runner.rollbackTransaction).not.toHaveBeenCalled();
    expect(client.end).toHaveBeenCalledTimes(1);
  });

  it("should roll back to the savepoint on SQLite's one connection, which is never closed", async () => {
    const { runner } = fakeRunner(async () => {}, 'better-sqlite3');
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    await expect(savepoint(runner.manager, () => Promise.reject(busy))).rejects.toBe(busy);
    expect(runner.rollbackTransaction).toHaveBeenCalledTimes(1);
  });
});
