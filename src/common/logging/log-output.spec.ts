import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LogOutput, MAX_LOG_DELAY_MS } from './log-output.js';

function output() {
  const writes: string[] = [];
  const calls: string[] = [];
  const destination = {
    write: (text: string) => writes.push(text),
    flush: (done?: () => void) => {
      calls.push('flush');
      done?.();
    },
    flushSync: () => calls.push('flushSync'),
  };
  return { out: new LogOutput(destination as never), writes, calls };
}

describe('LogOutput', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('should hold request lines and write them together once the delay has passed', () => {
    const { out, writes } = output();
    out.writeRequestLine('a\n');
    out.writeRequestLine('b\n');
    vi.advanceTimersByTime(MAX_LOG_DELAY_MS - 1);
    expect(writes).toEqual([]);
    out.writeRequestLine('c\n');
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(['a\nb\nc\n']);
    vi.advanceTimersByTime(10 * MAX_LOG_DELAY_MS);
    expect(writes).toHaveLength(1);
  });

  it('should write at once when 32 KiB of request lines are held', () => {
    const { out, writes } = output();
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 31; i++) out.writeRequestLine(line);
    expect(writes).toEqual([]);
    out.writeRequestLine(line);
    expect(writes).toEqual([line.repeat(32)]);
  });

  it('should write any other line at once, after the request lines held before it', () => {
    const { out, writes } = output();
    out.writeRequestLine('request\n');
    out.write('warning\n');
    expect(writes).toEqual(['request\nwarning\n']);
  });

  it('should write what it holds before flushing, asynchronously or not', () => {
    const { out, writes, calls } = output();
    out.writeRequestLine('one\n');
    const done = vi.fn();
    out.flush(done);
    expect(writes).toEqual(['one\n']);
    expect(calls).toEqual(['flush']);
    expect(done).toHaveBeenCalledOnce();
    out.writeRequestLine('two\n');
    out.flushSync();
    expect(writes).toEqual(['one\n', 'two\n']);
    expect(calls).toEqual(['flush', 'flushSync']);
  });
});
