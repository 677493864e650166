import { pino } from 'pino';

type Destination = ReturnType<typeof pino.destination>;

// Why these sizes: docs/performance.md.
const HANDOVER_CHARS = 32 * 1024;
export const MAX_LOG_DELAY_MS = 100;
// Zero would also start a write at once, but then `flush` would not wait for the write under way.
const LOG_BUFFER_BYTES = 1;

export class LogOutput {
  private held: string[] = [];
  private heldChars = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly destination: Destination = pino.destination({
      dest: 1,
      sync: false,
      minLength: LOG_BUFFER_BYTES,
    }),
  ) {
    // Also covers process.exit() after a failed start, which runs no shutdown hook.
    process.once('exit', () => this.flushSync());
  }

  write(line: string): boolean {
    this.hold(line);
    this.handOver();
    return true;
  }

  writeRequestLine(line: string): void {
    this.hold(line);
    if (this.heldChars >= HANDOVER_CHARS) this.handOver();
    else this.timer ??= setTimeout(this.handOver, MAX_LOG_DELAY_MS).unref();
  }

  flush(done: (err?: Error) => void): void {
    this.handOver();
    this.destination.flush(done);
  }

  flushSync(): void {
    try {
      this.handOver();
      this.destination.flushSync();
    } catch {
      // Not open yet, or already closed: nothing is held.
    }
  }

  private hold(line: string): void {
    this.held.push(line);
    this.heldChars += line.length;
  }

  private readonly handOver = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.held.length === 0) return;
    const text = this.held.length === 1 ? this.held[0] : this.held.join('');
    this.held = [];
    this.heldChars = 0;
    this.destination.write(text);
  };
}
