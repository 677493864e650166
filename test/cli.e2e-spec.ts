import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeysService } from '../src/auth/api-keys.service.js';
import {
  ensureBuilt,
  ROOT,
  sleepingOnLock,
  spawnCli as spawnBuiltCli,
  startCli,
} from './support/built-server.js';
import { createTestApp, type TestApp } from './support/create-test-app.js';

const KEY_PATTERN = /^pk_test_[0-9A-Za-z]{40}$/;
// better-sqlite3 ships no type declarations; this is the little of it used here.
const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => {
  prepare(sql: string): { run(): unknown; all(): unknown[] };
  close(): void;
};

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

describe('CLI (e2e)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-cli-'));
  const envFor = (db: string) => ({
    DATABASE_URL: `sqlite:${join(dir, db)}`,
    APP_ENV: 'development',
  });

  const spawnCli = (env: Record<string, string>, args: string[]) => spawnBuiltCli(env, args, dir);
  const cli = (db: string, ...args: string[]) => spawnCli(envFor(db), args);

  const file = (name: string, content: string): string => {
    writeFileSync(join(dir, name), content);
    return name;
  };

  beforeAll(ensureBuilt, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Every run boots Node, Nest and TypeORM (about a second of CPU), so independent runs go in parallel.
  describe('usage', () => {
    it('should print the usage on --help and exit 0', async () => {
      const res = await cli('usage.sqlite', '--help');
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('keys create --plan free|pro|business|enterprise');
      expect(res.stdout).toContain('inventory import FILE');
      expect(res.stderr).toBe('');
    });

    it('should exit 2 with a message and a short usage on stderr for bad arguments', async () => {
      const cases: Array<[string[], string]> = [
        [['frobnicate'], 'unknown command "frobnicate"'],
        [['keys'], 'keys needs a command: create, list, revoke, roll'],
        [['keys', 'list', '--verbose'], 'unknown option --verbose'],
        [['keys', 'revoke'], 'missing ID'],
        [['inventory', 'import', 'a.json', 'b.json'], 'unexpected argument "b.json"'],
      ];
      const results = await Promise.all(cases.map(([args]) => cli('usage.sqlite', ...args)));
      results.forEach((res, i) => {
        expect(res.code, cases[i][0].join(' ')).toBe(2);
        expect(res.stderr).toContain(`Error: ${cases[i][1]}`);
        expect(res.stderr).toContain('Usage:');
        expect(res.stdout).toBe('');
      });
    });

    it('should report a bad configuration on one line and exit 1', async () => {
      const res = await spawnCli({ DATABASE_URL: 'mysql://localhost/petstore' }, ['keys', 'list']);
      expect(res.code).toBe(1);
      expect(lines(res.stderr)).toEqual([
        expect.stringContaining('Invalid configuration: DATABASE_URL'),
      ]);
    });

    it('should refuse a TRUST_PROXY that trusts every address in one line', async () => {
      const results = await Promise.all(
        ['0.0.0.0/0', '0.0.0.0/1,128.0.0.0/1'].map((value) =>
          spawnCli({ DATABASE_URL: 'sqlite::memory:', TRUST_PROXY: value }, ['keys', 'list']),
        ),
      );
      for (const res of results) {
        expect(res.code).toBe(1);
        expect(lines(res.stderr)).toEqual([
          expect.stringMatching(
            /^Invalid configuration: TRUST_PROXY must be proxy addresses or ranges no wider than \/8 \(IPv4\) or \/32 \(IPv6\).* \(got "0\.0\.0\.0\/[01]"\)$/,
          ),
        ]);
      }
    });

    it('should hide the password of a refused URL, in its userinfo or its query', async () => {
      const res = await spawnCli(
        { DATABASE_URL: 'mysql://admin:s3cret@localhost/petstore?sslmode=require&password=s3cret' },
        ['keys', 'list'],
      );
      expect(res.code).toBe(1);
      expect(lines(res.stderr)).toEqual([
        'Invalid configuration: DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://… (got "mysql://***@localhost/petstore?sslmode=require&password=***")',
      ]);
    });
  });

  describe('keys', () => {
    const db = 'keys.sqlite';
    let t: TestApp;
    let keys: ApiKeysService;

    // A server on the same database, with no key cache so a revocation shows on the next request.
    beforeAll(async () => {
      t = await createTestApp({ ...envFor(db), API_KEY_CACHE_TTL_MS: '0' });
      keys = t.app.get(ApiKeysService);
    });
    afterAll(() => t.close());

    const inventoryStatus = async (rawKey: string) =>
      (await request(t.server).get('/v1/inventory').set('Authorization', `Bearer ${rawKey}`))
        .status;

    it('should create a key that the running server accepts at once, printed as the last line', async () => {
      const res = await cli(db, 'keys', 'create', '--plan', 'pro', '--name', 'ci runner');
      expect(res.code).toBe(0);
      const key = lines(res.stdout).at(-1)!;
      expect(key).toMatch(KEY_PATTERN);
      expect(await inventoryStatus(key)).toBe(200);
      expect(await keys.list()).toEqual([
        expect.objectContaining({ name: 'ci runner', plan: 'pro', keyPrefix: key.slice(0, 12) }),
      ]);
    });

    it('should print one JSON object with --json, with the key and its limits', async () => {
      const res = await cli(
        db,
        'keys',
        'create',
        '--plan',
        'enterprise',
        '--per-minute',
        '5000',
        '--per-day',
        '9000000',
        '--json',
      );
      expect(res.code).toBe(0);
      const created = JSON.parse(res.stdout);
      expect(created).toMatchObject({
        plan: 'enterprise',
        perMinute: 5000,
        perDay: 9000000,
        environment: 'development',
      });
      expect(created.key).toMatch(KEY_PATTERN);
      expect(created.key.startsWith(created.prefix)).toBe(true);
      expect(await inventoryStatus(created.key)).toBe(200);
      expect((await keys.list()).find((key) => key.id === created.id)).toMatchObject({
        perMinute: 5000,
        perDay: 9000000,
      });
    });

    it('should refuse bad create arguments with exit 2, saying why, and create nothing', async () => {
      const before = (await keys.list()).length;
      const cases: Array<[string[], string]> = [
        [
          ['--plan', 'enterprise', '--per-minute', '10'],
          'an enterprise key needs both --per-minute and --per-day',
        ],
        [['--plan', 'gold'], '--plan must be one of free, pro, business, enterprise (got "gold")'],
        [
          ['--plan', 'free', '--per-minute', 'abc'],
          '--per-minute must be a positive integer, at most 2147483647 (got "abc")',
        ],
        [
          ['--plan', 'free', '--per-day', '0'],
          '--per-day must be a positive integer, at most 2147483647 (got "0")',
        ],
        // A negative value is the option's value, not another flag.
        [
          ['--plan', 'free', '--per-minute', '-3'],
          '--per-minute must be a positive integer, at most 2147483647 (got "-3")',
        ],
        [['--plan'], '--plan needs a value'],
        [['--plan', '--json'], '--plan needs a value'],
        [['--plan', 'free', '--json=yes'], '--json takes no value'],
      ];
      const results = await Promise.all(cases.map(([args]) => cli(db, 'keys', 'create', ...args)));
      results.forEach((res, i) => {
        expect(res.code, cases[i][0].join(' ')).toBe(2);
        expect(res.stderr).toContain(cases[i][1]);
        expect(res.stdout).toBe('');
      });
      expect(await keys.list()).toHaveLength(before);
    });

    it('should list keys with prefix, plan and limits, never a raw key', async () => {
      const { rawKey } = await keys.create({ plan: 'business', name: 'listed', perDay: 123 });
      const [table, json] = await Promise.all([
        cli(db, 'keys', 'list'),
        cli(db, 'keys', 'list', '--json'),
      ]);
      expect(table.code).toBe(0);
      const row = lines(table.stdout).find((line) => line.includes('listed'))!;
      expect(row).toContain(rawKey.slice(0, 12));
      expect(row).toMatch(/business\s+1000\s+123\s+development/);
      expect(JSON.parse(json.stdout)).toContainEqual(
        expect.objectContaining({ name: 'listed', prefix: rawKey.slice(0, 12), perDay: 123 }),
      );
      for (const output of [table.stdout, json.stdout])
        expect(output).not.toContain(rawKey.slice(0, 16));
    });

    it('should revoke a key so the running server refuses it, and say so when it already was', async () => {
      const { key, rawKey } = await keys.create({ plan: 'free' });
      expect(await inventoryStatus(rawKey)).toBe(200);

      const res = await cli(db, 'keys', 'revoke', String(key.id));
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(`Revoked API key ${key.id}`);
      expect(await inventoryStatus(rawKey)).toBe(401);

      const [again, list] = await Promise.all([
        cli(db, 'keys', 'revoke', String(key.id)),
        cli(db, 'keys', 'list', '--json'),
      ]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('already revoked');
      expect(JSON.parse(list.stdout)).toContainEqual(
        expect.objectContaining({ id: key.id, revokedAt: expect.any(String) }),
      );
    });

    it('should fail with exit 1 on an unknown key id and exit 2 on a malformed one', async () => {
      const [unknown, malformed] = await Promise.all([
        cli(db, 'keys', 'revoke', '424242'),
        cli(db, 'keys', 'revoke', 'abc'),
      ]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('No API key with id 424242');
      expect(malformed.code).toBe(2);
      expect(malformed.stderr).toContain(
        'ID must be a positive integer, at most 2147483647 (got "abc")',
      );
    });
  });

  describe('inventory import', () => {
    const db = 'import.sqlite';
    let t: TestApp;
    let auth: string;

    beforeAll(async () => {
      t = await createTestApp(envFor(db));
      auth = `Bearer ${await t.createKey()}`;
    });
    afterAll(() => t.close());

    /** The inventory as the server returns it, as raw text so int64 ids are seen exactly. */
    const inventoryText = async () =>
      (await request(t.server).get('/v1/inventory').set('Authorization', auth).expect(200)).text;
    // Written as text: JSON.stringify cannot hold the int64 ids the test is about.
    const rowsFile = (name: string, rows: string[]) => file(name, `[${rows.join(',\n')}]`);

    it('should wait for another process holding the write lock instead of failing', async () => {
      const lockedDb = 'locked.sqlite';
      expect((await cli(lockedDb, 'keys', 'list')).code).toBe(0);
      // Another writer (a server taking updates) holds the lock, then commits mid-import: a
      // transaction that read before that commit could no longer write (SQLITE_BUSY at once).
      const other = new Database(join(dir, lockedDb));
      other.prepare('BEGIN IMMEDIATE').run();
      other
        .prepare(
          `INSERT INTO pets (id, name, status, quantity) VALUES (777, 'Other', 'available', 1)`,
        )
        .run();
      const running = startCli(
        { ...envFor(lockedDb), SQLITE_BUSY_TIMEOUT_MS: '60000' },
        [
          'inventory',
          'import',
          rowsFile('while-locked.json', ['{"petId":8,"quantity":4,"status":"available"}']),
        ],
        dir,
      );
      await sleepingOnLock(running.pid, running.result);
      other.prepare('COMMIT').run();
      const res = await running.result;
      const ids = other.prepare('SELECT id FROM pets ORDER BY id').all();
      other.close();
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(ids).toEqual([{ id: 8 }, { id: 777 }]);
    });

    it('should import a file, int64 ids exactly, and report the counts', async () => {
      const res = await cli(
        db,
        'inventory',
        'import',
        rowsFile('first.json', [
          '{"petId":9223372036854775807,"quantity":3,"status":"available","name":"Max"}',
          '{"petId":9007199254740993,"quantity":2,"status":"pending"}',
          '{"petId":7,"quantity":5,"status":"available"}',
        ]),
      );
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('Imported 3 rows from first.json: 3 inserted, 0 updated.');
      expect(await inventoryText()).toBe(
        '[{"petId":7,"quantity":5,"status":"available","available":5},' +
          '{"petId":9007199254740993,"quantity":2,"status":"pending","available":2},' +
          '{"petId":9223372036854775807,"quantity":3,"status":"available","available":3}]',
      );
    });

    it('should count one row as one row', async () => {
      const res = await cli(
        db,
        'inventory',
        'import',
        rowsFile('one.json', ['{"petId":7,"quantity":5,"status":"available"}']),
      );
      expect(res.stdout).toBe('Imported 1 row from one.json: 0 inserted, 1 updated.\n');
    });

    it('should read a relative path from where npm run cli was typed, and only then from INIT_CWD', async () => {
      mkdirSync(join(dir, 'typed-here'), { recursive: true });
      writeFileSync(
        join(dir, 'typed-here', 'rel.json'),
        '[{"petId":31,"quantity":4,"status":"available"}]',
      );
      // npm runs the script in the project folder and passes the folder it was typed in.
      const viaNpm = spawnSync(
        'npm',
        ['--prefix', ROOT, 'run', '--silent', 'cli', '--', 'inventory', 'import', 'rel.json'],
        {
          cwd: join(dir, 'typed-here'),
          env: { ...process.env, ...envFor('paths.sqlite') },
          encoding: 'utf8',
        },
      );
      expect(viaNpm.stderr.replace(/^npm warn.*\n/gm, '')).toBe('');
      expect(viaNpm.stdout).toBe('Imported 1 row from rel.json: 1 inserted, 0 updated.\n');
      // Started by another script, the CLI ignores the INIT_CWD it inherited.
      const direct = await spawnBuiltCli(
        { ...envFor('paths.sqlite'), INIT_CWD: ROOT, npm_lifecycle_event: 'test' },
        ['inventory', 'import', 'rel.json'],
        join(dir, 'typed-here'),
      );
      expect(direct.stdout).toBe('Imported 1 row from rel.json: 0 inserted, 1 updated.\n');
    });

    it('should report updates when a second file overlaps the first', async () => {
      const res = await cli(
        db,
        'inventory',
        'import',
        '--json',
        rowsFile('second.json', [
          '{"petId":9007199254740993,"quantity":9,"status":"available"}',
          '{"petId":8,"quantity":1,"status":"available"}',
        ]),
      );
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout)).toEqual({
        file: 'second.json',
        rows: 2,
        inserted: 1,
        updated: 1,
      });
      expect(await inventoryText()).toBe(
        '[{"petId":7,"quantity":5,"status":"available","available":5},{"petId":8,"quantity":1,"status":"available","available":1},' +
          '{"petId":9007199254740993,"quantity":9,"status":"available","available":9},' +
          '{"petId":9223372036854775807,"quantity":3,"status":"available","available":3}]',
      );
    });

    it('should import nothing from a malformed file, a file with one bad row, or a missing file', async () => {
      const before = await inventoryText();
      const [malformed, badRow, missing] = await Promise.all([
        cli(db, 'inventory', 'import', file('broken.json', '[{"petId": 7, "quantity": 1')),
        cli(
          db,
          'inventory',
          'import',
          rowsFile('one-bad-row.json', [
            '{"petId":7,"quantity":0,"status":"available"}',
            '{"petId":100,"quantity":1,"status":"available"}',
            '{"petId":101,"quantity":1,"status":"lost"}',
            '{"petId":102,"quantity":1,"status":"available"}',
          ]),
        ),
        cli(db, 'inventory', 'import', 'no-such-file.json'),
      ]);

      expect(malformed.code).toBe(1);
      expect(malformed.stderr).toContain('broken.json was not imported (nothing was changed)');
      expect(malformed.stderr).toContain('not valid JSON');
      expect(badRow.code).toBe(1);
      expect(badRow.stderr).toContain('one-bad-row.json was not imported');
      expect(badRow.stderr).toContain('row 3: status must be one of');
      expect(badRow.stderr).not.toMatch(/row [124]:/);
      expect(missing.code).toBe(1);
      expect(lines(missing.stderr)).toEqual(['Error: cannot read no-such-file.json: no such file']);
      for (const res of [malformed, badRow, missing]) expect(res.stdout).toBe('');
      expect(await inventoryText()).toBe(before);
    });

    it('should import 100,000 rows in one go, reporting progress on stderr', async () => {
      const rows = Array.from(
        { length: 100_000 },
        (_, i) => `{"petId":${i + 1},"quantity":${i % 50},"status":"available"}`,
      );
      const res = await cli('big.sqlite', 'inventory', 'import', rowsFile('big.json', rows));
      expect(res.code).toBe(0);
      expect(res.stdout).toBe('Imported 100000 rows from big.json: 100000 inserted, 0 updated.\n');
      const progress = lines(res.stderr).filter((line) => line.startsWith('Writing rows: '));
      expect(progress).toHaveLength(10);
      expect(progress.at(-1)).toBe('Writing rows: 100000/100000 (100%)');
    });
  });
});
