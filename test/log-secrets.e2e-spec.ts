import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, startServer } from './support/built-server.js';

/*
 * Runs a representative session against the built server with every log line on (debug) and
 * greps everything the server and the CLI wrote for the secrets involved: keys that work, keys
 * that were revoked or never existed, and keys a careless client put where keys do not belong.
 * The development demo banner is the one place a key is printed on purpose; this runs in staging.
 */

const randomSecret = (length = 40) =>
  Array.from(
    { length },
    () =>
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[
        Math.floor(Math.random() * 62)
      ],
  ).join('');

/** The part of a key that must stay secret: everything after the display prefix `pk_test_XXXX`. */
const secretOf = (key: string) => key.slice('pk_test_'.length + 4);

describe('no raw key in the logs (e2e, built server)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-logs-'));
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'petstore.sqlite')}`,
    APP_ENV: 'staging',
    LOG_LEVEL: 'debug',
  };
  const cliOutput: string[] = [];
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    await ensureBuilt();
    const create = async (args: string[]) => {
      const { stdout, stderr } = await runCli(env, ['keys', 'create', ...args]);
      const lines = stdout.trim().split('\n');
      // The last stdout line is the key itself, shown once by design; everything else is checked.
      cliOutput.push(lines.slice(0, -1).join('\n'), stderr);
      return lines.at(-1)!.trim();
    };
    const file = join(dir, 'pets.json');
    writeFileSync(
      file,
      '[{"petId":1,"quantity":5,"status":"available","name":"Rex"},{"petId":9007199254740993,"quantity":0,"status":"sold"}]',
    );
    const enterprise = ['--plan', 'enterprise', '--per-minute', '100000', '--per-day', '100000'];
    // The first run migrates the new database; the rest may then run side by side.
    const shop = await create([...enterprise, '--name', 'shop']);
    const [limited, toRevoke, imported] = await Promise.all([
      create(['--plan', 'free', '--per-minute', '3']),
      runCli(env, ['keys', 'create', '--plan', 'pro', '--json']),
      runCli(env, ['inventory', 'import', file]),
    ]);
    const created = JSON.parse(toRevoke.stdout) as { id: number; key: string };
    keys.enterprise = shop;
    keys.limited = limited;
    keys.revoked = created.key;
    cliOutput.push(imported.stdout, imported.stderr, toRevoke.stderr);
    const [revoked, listed] = await Promise.all([
      runCli(env, ['keys', 'revoke', String(created.id)]),
      runCli(env, ['keys', 'list']),
    ]);
    cliOutput.push(revoked.stdout, revoked.stderr, listed.stdout, listed.stderr);
    keys.unknown = `pk_test_${randomSecret()}`;
    keys.foreign = `pk_live_${randomSecret()}`;
    keys.tooLong = `pk_test_${randomSecret(140)}`;
    keys.malformed = `pk_test_${randomSecret(20)}!`;
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should log requests at debug level without ever writing a raw key', async () => {
    const server = await startServer(env);
    let requests = 0;
    const send = async (path: string, init: RequestInit = {}) => {
      requests++;
      const res = await fetch(`${server.url}${path}`, init);
      await res.arrayBuffer();
      return res.status;
    };
    const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
    const json = (key: string, body: string) => ({
      method: 'PATCH',
      headers: { ...bearer(key), 'Content-Type': 'application/json' },
      body,
    });
    try {
      // Keys that work.
      expect(await send('/v1/inventory', { headers: bearer(keys.enterprise) })).toBe(200);
      expect(await send('/v1/inventory/1', json(keys.enterprise, '{"quantity":4}'))).toBe(200);
      expect(await send('/v1/inventory/1', json(keys.enterprise, '{"quantity":"four"}'))).toBe(400);
      expect(await send('/v1/inventory/2', json(keys.enterprise, '{"quantity":4}'))).toBe(404);
      expect(
        await send('/v1/inventory/1', {
          ...json(keys.enterprise, 'quantity=4'),
          headers: { ...bearer(keys.enterprise), 'Content-Type': 'text/plain' },
        }),
      ).toBe(415);
      expect(await send('/v1/pets/1', { headers: bearer(keys.enterprise) })).toBe(200);
      expect(await send('/v1/store/orders', { headers: bearer(keys.enterprise) })).toBe(200);
      // Until rate limited, then banned.
      const limited: number[] = [];
      for (let i = 0; i < 6; i++)
        limited.push(await send('/v1/inventory', { headers: bearer(keys.limited) }));
      expect(limited.slice(0, 3)).toEqual([200, 200, 200]);
      expect(limited.slice(3)).toEqual([429, 429, 429]);
      // Keys that do not work.
      for (const key of [keys.revoked, keys.unknown, keys.foreign, keys.tooLong, keys.malformed]) {
        expect(await send('/v1/inventory', { headers: bearer(key) }), key).toBe(401);
        expect(await send('/v1/inventory', { headers: { Authorization: key } })).toBe(401);
      }
      // Keys where keys do not belong.
      const key = keys.enterprise;
      expect(await send('/v1/inventory', { headers: { 'X-Api-Key': key } })).toBe(401);
      expect(
        await send('/v1/inventory', {
          headers: { Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
        }),
      ).toBe(401);
      expect(await send(`/v1/inventory?api_key=${key}`)).toBe(401);
      expect(await send(`/v1/inventory?access_token=${key}`, { headers: bearer(key) })).toBe(200);
      expect(await send(`/v1/inventory/${key}`, json(key, '{"quantity":1}'))).toBe(400);
      expect(await send(`/v1/${key}`, { headers: bearer(key) })).toBe(404);
      expect(await send(`/${key}`)).toBe(404);
      expect(await send('/v1/inventory/1', json(key, `{"quantity":1,"key":"${key}"}`))).toBe(400);
      expect(await send('/v1/inventory/1', json(key, `{"quantity":1,"${key}":1}`))).toBe(400);
      expect(await send('/v1/inventory', { headers: { Cookie: `api_key=${key}` } })).toBe(401);
      expect(
        await send('/v1/inventory', { headers: { ...bearer(key), 'X-Request-Id': key } }),
      ).toBe(200);
      expect(
        await send('/v1/inventory', {
          headers: {
            ...bearer(key),
            Referer: `https://shop.example/?key=${key}`,
            'User-Agent': key,
          },
        }),
      ).toBe(200);
      // Public endpoints.
      expect(await send('/health/ready')).toBe(200);
      expect(await send('/metrics')).toBe(404);
    } finally {
      await server.stop();
    }

    const log = server.output();
    // Not vacuous: every request above was logged.
    const logged = log.split('\n').filter((line) => /"req":\{/.test(line)).length;
    expect(logged, log.slice(0, 2000)).toBeGreaterThanOrEqual(requests - 2);
    // A line logged while a request is handled names it as its request line does.
    const entries = log
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map(
        (line) =>
          JSON.parse(line) as {
            msg?: string;
            reqId?: string;
            deprecatedOperation?: string;
            req?: { url?: string };
          },
      );
    const deprecation = entries.find((entry) => entry.deprecatedOperation === 'getPetById');
    expect(deprecation?.reqId).toEqual(expect.any(String));
    expect(
      entries.some(
        (entry) =>
          entry.msg === 'request completed' &&
          entry.reqId === deprecation?.reqId &&
          entry.req?.url === '/v1/pets/1',
      ),
    ).toBe(true);
    for (const [name, key] of Object.entries(keys)) {
      for (const text of [log, cliOutput.join('\n')]) {
        expect(text.includes(key), `raw ${name} key found`).toBe(false);
        expect(text.includes(secretOf(key)), `secret of the ${name} key found`).toBe(false);
      }
    }
  }, 60_000);
});
