import { Injectable, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { Test } from '@nestjs/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PeriodicPruner } from './periodic-pruner.js';

@Injectable()
class HeldPruner extends PeriodicPruner {
  protected readonly subject = 'test rows';
  runs = 0;
  release: () => void = () => undefined;

  prune(): Promise<number> {
    this.runs++;
    return new Promise((resolve) => (this.release = () => resolve(1)));
  }
}

@Module({ imports: [ScheduleModule.forRoot()], providers: [HeldPruner] })
class PrunerTestModule {}

describe('PeriodicPruner', () => {
  afterEach(() => vi.useRealTimers());

  it('should prune once a minute, never two runs at once, and let shutdown wait for a run', async () => {
    vi.useFakeTimers();
    const module = await Test.createTestingModule({ imports: [PrunerTestModule] }).compile();
    const app = await module.init();
    const pruner = app.get(HeldPruner);

    await vi.advanceTimersByTimeAsync(59_999);
    expect(pruner.runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(pruner.runs).toBe(1);
    // The first run still holds: the next minute does not start another.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pruner.runs).toBe(1);

    let closed = false;
    const closing = app.close().then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(closed).toBe(false);
    pruner.release();
    await closing;
    expect(closed).toBe(true);
    // Closed: no interval is left to start a run.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(pruner.runs).toBe(1);
  });

  it('should start the next run once the one before has ended, and survive a failed run', async () => {
    vi.useFakeTimers();
    const module = await Test.createTestingModule({ imports: [PrunerTestModule] }).compile();
    const app = await module.init();
    const pruner = app.get(HeldPruner);
    const warn = vi.spyOn(pruner['logger'], 'warn').mockImplementation(() => undefined);
    vi.spyOn(pruner, 'prune').mockRejectedValueOnce(new Error('database is locked'));

    await vi.advanceTimersByTimeAsync(60_000);
    expect(warn).toHaveBeenCalledWith('Pruning test rows failed: database is locked');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pruner.prune).toHaveBeenCalledTimes(2);
    pruner.release();
    await app.close();
  });
});
