/**
 * Calls that arrive in one turn of the event loop, handed to `commit` together, one group at a
 * time: a commit costs more than the statements it carries (docs/performance.md).
 */
export class GroupCommitQueue<C> {
  private queued: C[] = [];
  private flushing = false;

  constructor(
    /** How many of the calls waiting (at least one) make the next group. */
    private readonly sizeOf: (waiting: readonly C[]) => number,
    /** Commits a group and settles every call in it, failed ones too. */
    private readonly commit: (group: C[]) => Promise<void>,
  ) {}

  push(call: C): void {
    this.queued.push(call);
    this.schedule();
  }

  /** Takes out the calls still waiting: a failure that dooms the group dooms them too. */
  takeWaiting(): C[] {
    return this.queued.splice(0);
  }

  private schedule(): void {
    if (this.flushing || this.queued.length === 0) return;
    this.flushing = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    try {
      await this.commit(this.queued.splice(0, Math.max(1, this.sizeOf(this.queued))));
    } finally {
      this.flushing = false;
      this.schedule();
    }
  }
}
