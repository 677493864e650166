import { describe, expect, it } from 'vitest';
import { GroupCommitQueue } from './group-commit.js';

describe('GroupCommitQueue', () => {
  it('should commit the calls of one turn together and those arriving meanwhile in the next group', async () => {
    const groups: number[][] = [];
    let release!: () => void;
    const firstHeld = new Promise<void>((resolve) => (release = resolve));
    let done!: () => void;
    const allDone = new Promise<void>((resolve) => (done = resolve));
    const queue = new GroupCommitQueue<number>(
      (waiting) => Math.min(2, waiting.length),
      async (group) => {
        groups.push(group);
        if (groups.length === 1) await firstHeld;
        if (group.includes(5)) done();
      },
    );
    for (const call of [1, 2, 3]) queue.push(call);
    await new Promise((resolve) => setImmediate(resolve));
    queue.push(4);
    queue.push(5);
    expect(groups).toEqual([[1, 2]]);
    release();
    await allDone;
    expect(groups).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('should hand over the calls still waiting', async () => {
    const seen: { group: number[]; waiting: number[] }[] = [];
    const queue = new GroupCommitQueue<number>(
      () => 1,
      async (group) => {
        seen.push({ group, waiting: queue.takeWaiting() });
      },
    );
    for (const call of [1, 2, 3]) queue.push(call);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([{ group: [1], waiting: [2, 3] }]);
  });
});
