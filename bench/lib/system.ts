import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';

export interface Pinning {
  /** The taskset binary wraps each server; undefined when the machine cannot pin. */
  serverPrefix: string[];
  description: string;
}

/**
 * Servers on CPU 0, this process (and with it the load generator) on CPU 1, when taskset exists
 * and there are at least two CPUs; otherwise everything shares the CPUs and the report says so.
 */
export function pinProcesses(): Pinning {
  const count = cpus().length;
  if (count < 2) return { serverPrefix: [], description: `not pinned (${count} CPU)` };
  try {
    execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
    return {
      serverPrefix: ['taskset', '-c', '0'],
      description: `servers on CPU 0, load generator on CPU 1 (of ${count})`,
    };
  } catch {
    return { serverPrefix: [], description: `not pinned (taskset unavailable; ${count} CPUs)` };
  }
}

export interface Memory {
  rss: number;
  /** Peak RSS since start or since the last resetPeak. */
  peak: number;
}

function kib(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) * 1024 : NaN;
}

export function readMemory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rss: kib(status, 'VmRSS'), peak: kib(status, 'VmHWM') };
}

/** Resets VmHWM to the current RSS (Linux clear_refs 5); false where the kernel refuses. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** CPU time (user + system) the process has used so far, in microseconds. */
export function cpuMicros(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, after the parenthesised command name.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
