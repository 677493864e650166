import { describe, expect, it } from 'vitest';
import { StockCommitted } from '../inventory/writes/stock-committed.js';
import { wakeOnCommit } from './webhook-dispatcher.js';

describe('wakeOnCommit', () => {
  it('should abort on the next commit, and hear none once stopped', () => {
    const committed = new StockCommitted();
    const first = wakeOnCommit(committed);
    const second = wakeOnCommit(committed);
    second.stop();
    committed.notify();
    expect(first.signal.aborted).toBe(true);
    expect(second.signal.aborted).toBe(false);
    first.stop();
    const third = wakeOnCommit(committed);
    expect(third.signal.aborted).toBe(false);
  });
});
