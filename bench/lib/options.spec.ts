import { describe, expect, it } from 'vitest';
import { FULL_RESULTS, PARTIAL_RESULTS, parseOptions } from './options.js';

describe('bench options', () => {
  it('should write a full run where the docs read their figures', () => {
    expect(parseOptions([], {}).out).toBe(FULL_RESULTS);
  });

  it('should keep a partial or quick run from replacing the full results', () => {
    expect(parseOptions(['--only', 'deployed'], {}).out).toBe(PARTIAL_RESULTS);
    expect(parseOptions(['--quick'], {}).out).toBe(PARTIAL_RESULTS);
    expect(parseOptions([], { BENCH_ONLY: 'get', BENCH_QUICK: '1' }).out).toBe(PARTIAL_RESULTS);
  });

  it('should write where it is told, by flag before variable', () => {
    expect(parseOptions(['--only', 'get', '--out', '/tmp/a.json'], {}).out).toBe('/tmp/a.json');
    expect(parseOptions(['--quick'], { BENCH_OUT: '/tmp/b.json' }).out).toBe('/tmp/b.json');
    expect(parseOptions(['--out', '/tmp/a.json'], { BENCH_OUT: '/tmp/b.json' }).out).toBe(
      '/tmp/a.json',
    );
  });
});
