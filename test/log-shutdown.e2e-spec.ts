import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyWithCli, ensureBuilt, startServer } from './support/built-server.js';

/*
 * Request log lines are written to stdout asynchronously (src/common/logging). A graceful
 * shutdown must still write every one of them: here the reader of the server's stdout stops
 * reading while the requests run, so that most lines are still in the server's buffer when
 * SIGTERM arrives, and reads on only well after the rest of the shutdown is done.
 */

const REQUESTS = 1500;
const CONCURRENCY = 16;

function get(url: string, agent: Agent, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves once `walFile` is gone; rejects if the process exits first. */
async function closedDatabase(walFile: string, exited: Promise<void>): Promise<void> {
  let done = false;
  void exited.then(() => (done = true));
  while (existsSync(walFile)) {
    if (done) throw new Error('the server exited before it closed its database');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('request log at a graceful shutdown (e2e, built server)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-log-shutdown-'));
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'petstore.sqlite')}`,
    APP_ENV: 'staging',
    LOG_LEVEL: 'info',
  };
  let key: string;

  beforeAll(async () => {
    await ensureBuilt();
    key = await createKeyWithCli(env, [
      '--plan',
      'enterprise',
      '--per-minute',
      '1000000',
      '--per-day',
      '1000000',
    ]);
  }, 60_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should write one line per request answered before SIGTERM, none lost', async () => {
    const server = await startServer(env);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    try {
      server.child.stdout.pause();
      let sent = 0;
      const statuses: number[] = [];
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (sent < REQUESTS) {
            sent++;
            statuses.push(await get(`${server.url}/v1/inventory?n=${sent}`, agent, key));
          }
        }),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(REQUESTS);
      agent.destroy();
      expect(existsSync(join(dir, 'petstore.sqlite-wal'))).toBe(true);
      server.child.kill('SIGTERM');
      // Once the rest of the shutdown is over (the last SQLite connection closed removes the
      // write-ahead log), only the logger still waits for the reader.
      await closedDatabase(join(dir, 'petstore.sqlite-wal'), server.exited);
      expect(server.child.exitCode).toBeNull();
      server.child.stdout.resume();
      await server.exited;
    } finally {
      agent.destroy();
      await server.stop('SIGKILL');
    }
    const logged = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string } })
      .filter((entry) => entry.msg === 'request completed');
    expect(logged).toHaveLength(REQUESTS);
    expect(new Set(logged.map((entry) => entry.req?.url)).size).toBe(REQUESTS);
  }, 120_000);
});
