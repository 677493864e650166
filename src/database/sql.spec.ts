import type { DataSource, EntityManager } from 'typeorm';
import { describe, expect, it, vi } from 'vitest';
import { transaction } from './sql.js';

function fakeRunner(rollback: () => Promise<void>) {
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
    options: { type: 'postgres' },
    createQueryRunner: () => runner,
  } as unknown as DataSource;
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
