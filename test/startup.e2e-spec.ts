import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const MAIN = join(import.meta.dirname, '..', 'dist', 'main.js');

/** Starts the built server and resolves with its log once it printed `until`; the caller kills it. */
function startServer(env: Record<string, string>, until: RegExp) {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 20_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (until.test(log)) {
        clearTimeout(timer);
        resolve(log);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${log}`)));
  });
  return { child, ready };
}

describe('npm start (built server)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should print a demo key and a curl line that returns the demo stock', async () => {
    const { child, ready } = startServer(
      {
        DATABASE_URL: `sqlite:${join(dir, 'demo.sqlite')}`,
        PORT: '0',
        HOST: '127.0.0.1',
        APP_ENV: 'development',
        LOG_LEVEL: 'info',
      },
      /Try it: curl/,
    );
    try {
      const log = await ready;
      const curl =
        /Try it: curl -H 'Authorization: Bearer (pk_test_[0-9A-Za-z]{40})' (http:\/\/localhost:\d+\/v1\/inventory)/.exec(
          log,
        );
      expect(curl, log).not.toBeNull();
      const res = await fetch(curl![2].replace('localhost', '127.0.0.1'), {
        headers: { Authorization: `Bearer ${curl![1]}` },
      });
      expect(res.status).toBe(200);
      const items = (await res.json()) as { petId: number; quantity: number; status: string }[];
      expect(items.length).toBeGreaterThanOrEqual(10);
      expect(Object.keys(items[0])).toEqual(['petId', 'quantity', 'status', 'available']);
      for (const line of log.trim().split('\n')) expect(() => JSON.parse(line), line).not.toThrow();
      // The first screen answers: where it listens, the key and the curl line, not Nest's report.
      const first = log
        .trim()
        .split('\n')
        .slice(0, 3)
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(first[0]).toMatch(/^Listening on http:\/\/localhost:\d+ \(development, sqlite\)$/);
      expect(first[1]).toBe(`Demo API key (free plan, shown once): ${curl![1]}`);
      expect(first[2]).toMatch(/^Try it: curl /);
      expect(log).not.toMatch(/InstanceLoader|RouterExplorer|RoutesResolver|NestFactory/);

      // GET / points a newcomer at the docs: no key, and not counted (more calls than a minute allows).
      const root = curl![2].replace('localhost', '127.0.0.1').replace('/v1/inventory', '/');
      const manifest = JSON.parse(
        readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'),
      );
      const answers = await Promise.all(Array.from({ length: 70 }, () => fetch(root)));
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
      }
      expect(await answers[69].json()).toEqual({
        name: manifest.name,
        version: manifest.version,
        links: { docs: '/docs', openapi: '/v1/openapi.json', health: '/health' },
      });
      for (const link of ['/docs', '/v1/openapi.json', '/health'])
        expect((await fetch(new URL(link, root))).status, link).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('should show, through `npm start`, where it listens, the key and the curl line in the first five lines', async () => {
    const child = spawn('npm', ['start'], {
      cwd: join(import.meta.dirname, '..'),
      env: {
        ...process.env,
        DATABASE_URL: `sqlite:${join(dir, 'npm-start.sqlite')}`,
        PORT: '0',
        HOST: '127.0.0.1',
        APP_ENV: 'development',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A group of its own: npm, its shell and the server stop together.
      detached: true,
    });
    let out = '';
    // 'close': every process holding the output pipes, the server included, has ended.
    const closed = new Promise((resolve) => child.on('close', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('Try it: curl')) resolve();
        });
        child.on('exit', () => reject(new Error(`npm start exited:\n${out}`)));
      });
      const first = out
        .split('\n')
        .filter((line) => line.trim() !== '')
        .slice(0, 5);
      // npm's own two banner lines, unless npm runs silent (`npm run --silent` passes that on).
      const banner = first[0].startsWith('> ') ? 2 : 0;
      expect(first.slice(0, banner)).toEqual(
        [
          expect.stringMatching(/^> petstore-inventory@[\d.]+ start$/),
          '> node scripts/start.mjs',
        ].slice(0, banner),
      );
      expect(
        first.slice(banner, banner + 3).map((line) => (JSON.parse(line) as { msg: string }).msg),
      ).toEqual([
        expect.stringMatching(/^Listening on http:\/\/localhost:\d+ /),
        expect.stringMatching(/^Demo API key \(free plan, shown once\): pk_test_/),
        expect.stringMatching(/^Try it: curl /),
      ]);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await closed;
    }
  });

  it('should say how to create a key on every later start, and no key again', async () => {
    const { child, ready } = startServer(
      {
        DATABASE_URL: `sqlite:${join(dir, 'demo.sqlite')}`,
        PORT: '0',
        HOST: '127.0.0.1',
        APP_ENV: 'development',
        LOG_LEVEL: 'info',
      },
      /create another with/,
    );
    try {
      const log = await ready;
      expect(log).toContain(
        '1 API key can call this server; create another with: npm run --silent cli -- keys create --plan free',
      );
      expect(log).not.toMatch(/pk_test_/);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('should warn with the command that creates a key when a production start finds none', async () => {
    const { child, ready } = startServer(
      {
        DATABASE_URL: `sqlite:${join(dir, 'production.sqlite')}`,
        PORT: '0',
        HOST: '127.0.0.1',
        APP_ENV: 'production',
        LOG_LEVEL: 'info',
      },
      /No API key can call/,
    );
    try {
      const line = (await ready).split('\n').find((l) => l.includes('No API key can call'))!;
      expect(JSON.parse(line)).toMatchObject({
        level: 40,
        msg: 'No API key can call this server yet; create one with: npm run --silent cli -- keys create --plan free',
      });
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('should refuse to start on a bad variable with one line naming it', () => {
    const result = spawnSync(process.execPath, [MAIN], {
      env: { ...process.env, PORT: 'eighty' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'Invalid configuration: PORT must be an integer from 0 to 65535 (got "eighty")\n',
    );
  });

  /**
   * Runs the built server to its exit (a start that kept retrying would outlive the test's
   * timeout); its output must end in one fatal JSON line.
   */
  async function failedStart(env: Record<string, string>) {
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, LOG_LEVEL: 'info', APP_ENV: 'staging', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    const lines = out.trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    // Nothing claims a start that then fails.
    expect(out).not.toMatch(/successfully started|Listening on/);
    expect(out).not.toMatch(/^\s+at /m);
    return {
      code,
      last: JSON.parse(lines.at(-1)!) as { level: number; msg: string; variable: string },
      lines: lines.length,
      fatal: lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50),
    };
  }

  it('should give up a start on an unreachable PostgreSQL, in one line naming DATABASE_URL', async () => {
    const result = await failedStart({
      DATABASE_URL: 'postgres://postgres:secret@127.0.0.1:1/petstore',
      PORT: '0',
    });
    expect(result.code).toBe(1);
    expect(result.fatal).toHaveLength(1);
    expect(result.last).toMatchObject({ level: 60, variable: 'DATABASE_URL' });
    expect(result.last.msg).toMatch(/database.*127\.0\.0\.1:1.*ECONNREFUSED.*check DATABASE_URL/);
    expect(result.last.msg).not.toContain('secret');
  });

  it('should end a start on a port in use in one line naming PORT and HOST', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    try {
      const result = await failedStart({
        DATABASE_URL: `sqlite:${join(dir, 'busy.sqlite')}`,
        PORT: String(port),
        HOST: '127.0.0.1',
      });
      expect(result.code).toBe(1);
      expect(result.fatal).toHaveLength(1);
      expect(result.lines).toBe(1);
      expect(result.last).toMatchObject({ level: 60, variable: 'PORT' });
      expect(result.last.msg).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(result.last.msg).toContain('check PORT and HOST');
    } finally {
      holder.close();
    }
  });
});
