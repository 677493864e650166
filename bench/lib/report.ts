import { round } from './stats.js';

export interface Row {
  measure: string;
  value: string;
  target?: string;
  met?: boolean;
}

/** A Markdown table, so the output can go into the README as it is. */
export function markdownTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => row[i].length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [
    line(headers),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

export const fmt = {
  rps: (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–'),
  ms: (n: number) => (Number.isFinite(n) ? `${round(n, n < 10 ? 2 : 1)} ms` : '–'),
  ratio: (n: number) => (Number.isFinite(n) ? `${round(n, 2).toFixed(2)}x` : '–'),
  us: (n: number) => (Number.isFinite(n) ? `${Math.round(n)} µs` : '–'),
  mib: (bytes: number) => (Number.isFinite(bytes) ? `${round(bytes / 1024 / 1024, 1)} MiB` : '–'),
  pct: (n: number) => (Number.isFinite(n) ? `${n >= 0 ? '+' : ''}${round(n * 100, 1)}%` : '–'),
};
