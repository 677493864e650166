import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeysService } from '../src/auth/api-keys.service.js';
import { ensureBuilt, spawnCli } from './support/built-server.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

const KEY_PATTERN = /^pk_test_[0-9A-Za-z]{40}$/;
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/;
// The table shows every key time alike, to the second.
const SECONDS = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/;
const HOUR = 3_600_000;

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

describe('CLI: key scopes, expiry and rolling (e2e)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-keys-cli-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'keys.sqlite')}`, APP_ENV: 'development' };
  const cli = (...args: string[]) => spawnCli(env, args, dir);
  let t: TestApp;
  let keys: ApiKeysService;

  // A server on the same database, with no key cache so each change shows on the next request.
  beforeAll(async () => {
    await ensureBuilt();
    t = await createTestApp({ ...env, API_KEY_CACHE_TTL_MS: '0' });
    keys = t.app.get(ApiKeysService);
    await t.seed([{ petId: 1n, name: 'Rex', status: 'available', quantity: 5 }]);
  }, 120_000);
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const listStatus = async (rawKey: string) =>
    (await request(t.server).get('/v1/inventory').set('Authorization', `Bearer ${rawKey}`)).status;
  const patchStatus = async (rawKey: string) =>
    (
      await request(t.server)
        .patch('/v1/inventory/1')
        .set('Authorization', `Bearer ${rawKey}`)
        .send({ quantity: 4 })
    ).status;

  it('should create a read key that expires, saying so, with the key as the last line', async () => {
    const before = Date.now();
    const [text, json] = await Promise.all([
      cli(
        'keys',
        'create',
        '--plan',
        'free',
        '--name',
        'storefront',
        '--scope',
        'read',
        '--expires-in',
        '30d',
      ),
      cli('keys', 'create', '--plan', 'pro', '--expires-in', '12h', '--json'),
    ]);
    expect(text.code, text.stderr).toBe(0);
    const out = lines(text.stdout);
    expect(out[0]).toMatch(
      /^Created API key \d+ \(pk_test_\w{4}\) on the free plan: 60\/minute, 1000\/day, environment development, read scope, expires \S+Z\.$/,
    );
    const key = out.at(-1)!;
    expect(key).toMatch(KEY_PATTERN);
    expect(await listStatus(key)).toBe(200);
    expect(await patchStatus(key)).toBe(403);
    const stored = (await keys.list()).find((k) => k.keyPrefix === key.slice(0, 12))!;
    expect(stored.scope).toBe('read');
    expect(stored.expiresAt!.getTime() - before).toBeGreaterThanOrEqual(30 * 24 * HOUR);
    expect(stored.expiresAt!.getTime() - Date.now()).toBeLessThanOrEqual(30 * 24 * HOUR);

    expect(json.code, json.stderr).toBe(0);
    const created = JSON.parse(json.stdout);
    expect(created).toMatchObject({
      plan: 'pro',
      scope: 'write',
      expiresAt: expect.stringMatching(ISO),
    });
    expect(Date.parse(created.expiresAt) - before).toBeGreaterThanOrEqual(12 * HOUR);
    expect(await patchStatus(created.key)).toBe(200);
  });

  it('should refuse a bad --scope or --expires-in with exit 2, saying why, and create nothing', async () => {
    const count = (await keys.list()).length;
    const cases: Array<[string[], string]> = [
      [['--scope', 'admin'], '--scope must be one of read, write (got "admin")'],
      [
        ['--expires-in', '2w'],
        '--expires-in must be a whole number of days or hours such as 30d or 12h, from 1h to 3650d (got "2w")',
      ],
      [['--expires-in', '0h'], '--expires-in must be a whole number of days or hours'],
    ];
    const results = await Promise.all(
      cases.map(([args]) => cli('keys', 'create', '--plan', 'free', ...args)),
    );
    results.forEach((res, i) => {
      expect(res.code, cases[i][0].join(' ')).toBe(2);
      expect(res.stderr).toContain(`Error: ${cases[i][1]}`);
      expect(res.stdout).toBe('');
    });
    expect(await keys.list()).toHaveLength(count);
  });

  it('should roll a key: a successor printed once, the old key working through the grace, and keys list saying which replaced which', async () => {
    const old = await keys.create({ plan: 'business', name: 'pos', perDay: 5000, scope: 'read' });
    const before = Date.now();
    const res = await cli('keys', 'roll', String(old.key.id), '--grace', '2h');
    expect(res.code, res.stderr).toBe(0);
    const out = lines(res.stdout);
    const successor = out.at(-1)!;
    expect(successor).toMatch(KEY_PATTERN);
    expect(successor).not.toBe(old.rawKey);
    expect(out[0]).toMatch(
      new RegExp(
        `^Rolled API key ${old.key.id} \\(${old.key.keyPrefix}\\): API key (\\d+) \\(${successor.slice(0, 12)}\\) replaces it, on the business plan: 1000/minute, 5000/day, read scope, never expires\\.$`,
      ),
    );
    const newId = Number(/API key (\d+) \(/.exec(out[0].split(': ')[1])![1]);
    const graceEnds = Date.parse(/works until (\S+Z);/.exec(out[1])![1]);
    expect(graceEnds - before).toBeGreaterThanOrEqual(2 * HOUR);
    expect(graceEnds - Date.now()).toBeLessThanOrEqual(2 * HOUR);

    expect(await listStatus(old.rawKey)).toBe(200);
    expect(await listStatus(successor)).toBe(200);
    expect(await patchStatus(successor)).toBe(403);

    const [table, json] = await Promise.all([cli('keys', 'list'), cli('keys', 'list', '--json')]);
    const [header, ...rows] = lines(table.stdout);
    expect(header).toMatch(
      /^ID\s+PREFIX\s+NAME\s+PLAN\s+PER MINUTE\s+PER DAY\s+ENVIRONMENT\s+SCOPE\s+CREATED\s+EXPIRES\s+REVOKED\s+REPLACED BY$/,
    );
    const oldRow = rows.find((row) => row.startsWith(`${old.key.id} `))!;
    expect(oldRow).toMatch(
      new RegExp(`development\\s+read\\s+${SECONDS.source}\\s+${SECONDS.source}\\s+-\\s+${newId}$`),
    );
    const newRow = rows.find((row) => row.startsWith(`${newId} `))!;
    expect(newRow).toMatch(/business\s+1000\s+5000\s+development\s+read\s+\S+\s+-\s+-\s+-$/);
    const listed = JSON.parse(json.stdout);
    expect(listed).toContainEqual(
      expect.objectContaining({
        id: old.key.id,
        scope: 'read',
        replacedById: newId,
        rolledAt: expect.stringMatching(ISO),
        expiresAt: new Date(graceEnds).toISOString(),
      }),
    );
    expect(listed).toContainEqual(
      expect.objectContaining({ id: newId, name: 'pos', replacedById: null, expiresAt: null }),
    );
    for (const output of [table.stdout, json.stdout]) {
      expect(output).not.toContain(old.rawKey.slice(0, 16));
      expect(output).not.toContain(successor.slice(0, 16));
    }
  });

  it('should print one JSON object with --json, and stop the old key at once with --grace 0h', async () => {
    const old = await keys.create({ plan: 'free' });
    expect(await listStatus(old.rawKey)).toBe(200);
    const res = await cli('keys', 'roll', String(old.key.id), '--grace', '0h', '--json');
    expect(res.code, res.stderr).toBe(0);
    const rolled = JSON.parse(res.stdout);
    expect(rolled).toMatchObject({
      plan: 'free',
      scope: 'write',
      replacesId: old.key.id,
      graceEndsAt: expect.stringMatching(ISO),
      key: expect.stringMatching(KEY_PATTERN),
    });
    expect(await listStatus(old.rawKey)).toBe(401);
    expect(await listStatus(rolled.key)).toBe(200);
  });

  it('should refuse to roll a key twice, a revoked key, or an unknown id with exit 1 and a clear message', async () => {
    const rolled = await keys.create({ plan: 'free' });
    const successor = await keys.roll(rolled.key.id, HOUR);
    const revoked = await keys.create({ plan: 'free' });
    await keys.revoke(revoked.key.id);
    const count = (await keys.list()).length;

    const [twice, ofRevoked, unknown, badGrace] = await Promise.all([
      cli('keys', 'roll', String(rolled.key.id)),
      cli('keys', 'roll', String(revoked.key.id)),
      cli('keys', 'roll', '424242'),
      cli('keys', 'roll', String(successor.key.id), '--grace', '1d'),
    ]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(
      new RegExp(
        `^Error: API key ${rolled.key.id} was already rolled on \\S+Z: key ${successor.key.id} replaced it; roll key ${successor.key.id} instead\\n$`,
      ),
    );
    expect(ofRevoked.code).toBe(1);
    expect(ofRevoked.stderr).toContain(`Error: API key ${revoked.key.id} was revoked on `);
    expect(ofRevoked.stderr).toContain('a revoked key cannot be rolled');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No API key with id 424242');
    expect(badGrace.code).toBe(2);
    expect(badGrace.stderr).toContain(
      'Error: --grace must be a whole number of hours such as 24h, from 0h to 720h (got "1d")',
    );
    for (const res of [twice, ofRevoked, unknown, badGrace]) expect(res.stdout).toBe('');
    expect(await keys.list()).toHaveLength(count);
  });

  it('should let only one of two simultaneous rolls of a key succeed', async () => {
    const old = await keys.create({ plan: 'free' });
    const count = (await keys.list()).length;
    const results = await Promise.all([
      cli('keys', 'roll', String(old.key.id)),
      cli('keys', 'roll', String(old.key.id)),
    ]);
    expect(results.map((res) => res.code).sort()).toEqual([0, 1]);
    expect(results.find((res) => res.code === 1)!.stderr).toContain('was already rolled');
    expect(await keys.list()).toHaveLength(count + 1);
  });

  it('should list a name with control, escape and bidi characters escaped, as a table and as JSON', async () => {
    const name = 'ci\u001b]0;owned\u0007\u001b[2J\nfake row\u202eputs';
    const { key } = await keys.create({ plan: 'free', name });
    // eslint-disable-next-line no-control-regex
    const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    const [text, json] = await Promise.all([cli('keys', 'list'), cli('keys', 'list', '--json')]);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(raw);
    const row = lines(text.stdout).filter((line) => line.startsWith(`${key.id} `));
    expect(row).toHaveLength(1);
    expect(row[0]).toContain('ci\\u001b]0;owned\\u0007\\u001b[2J\\u000afake row\\u202eputs');
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(raw);
    const listed = (JSON.parse(json.stdout) as { id: number; name: string }[]).find(
      (entry) => entry.id === key.id,
    );
    expect(listed?.name).toBe(name);
  });

  it('should compute and show key times in UTC under any TZ', async () => {
    for (const TZ of ['Asia/Tokyo', 'America/Los_Angeles']) {
      const before = Date.now();
      const res = await spawnCli(
        { ...env, TZ },
        ['keys', 'create', '--plan', 'free', '--expires-in', '1h', '--json'],
        dir,
      );
      const after = Date.now();
      expect(res.code, res.stderr).toBe(0);
      const created = JSON.parse(res.stdout) as {
        id: number;
        expiresAt: string;
        createdAt: string;
      };
      expect(created.expiresAt).toMatch(new RegExp(`^${ISO.source}$`));
      const stored = (await keys.list()).find((key) => key.id === created.id)!;
      expect(stored.expiresAt!.getTime()).toBeGreaterThanOrEqual(before + HOUR);
      expect(stored.expiresAt!.getTime()).toBeLessThanOrEqual(after + HOUR);
      expect(created.expiresAt).toBe(stored.expiresAt!.toISOString());
      // SQLite's datetime('now') has whole seconds.
      expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(created.createdAt)).toBeLessThanOrEqual(after);
      expect(await listStatus(JSON.parse(res.stdout).key)).toBe(200);
    }
  });
});
