import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, spawnCli } from './support/built-server.js';

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe('CLI: webhooks (e2e)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-webhooks-cli-'));
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'webhooks.sqlite')}`,
    APP_ENV: 'staging',
    WEBHOOK_ALLOW_HTTP: 'true',
  };
  const cli = (...args: string[]) => spawnCli(env, args, dir);
  const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!;

  beforeAll(() => ensureBuilt(), 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should add an endpoint, print its secret once as the last line, and never list it', async () => {
    const added = await spawnCli(
      { ...env, WEBHOOK_ALLOW_PRIVATE: 'true' },
      ['webhooks', 'add', 'http://localhost:9/hook', '--description', 'shop \u001b[31m'],
      dir,
    );
    expect(added.code, added.stderr).toBe(0);
    const secret = lastLine(added.stdout);
    expect(secret).toMatch(SECRET);
    const id = /webhook endpoint (\d+)/.exec(added.stdout)![1];

    const list = await cli('webhooks', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('http://localhost:9/hook');
    expect(list.stdout).toContain('shop \\u001b[31m');
    expect(list.stdout).not.toContain('\u001b');
    expect(list.stdout).not.toContain(secret.slice(6, 20));
    const json = JSON.parse((await cli('webhooks', 'list', '--json')).stdout);
    expect(json[0]).toMatchObject({ id: Number(id), enabled: true, failures: 0 });
    expect(JSON.stringify(json)).not.toContain('whsec_');

    const rolled = await cli('webhooks', 'roll-secret', id, '--grace', '2h');
    expect(rolled.code, rolled.stderr).toBe(0);
    expect(lastLine(rolled.stdout)).toMatch(SECRET);
    expect(lastLine(rolled.stdout)).not.toBe(secret);
    const [after] = JSON.parse((await cli('webhooks', 'list', '--json')).stdout);
    expect(after.previousSecretUntil).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    expect((await cli('webhooks', 'deliveries', id)).stdout).toContain('No delivery attempts');
    expect((await cli('webhooks', 'deliveries', id, '--json')).stdout.trim()).toBe('[]');
    const replay = await cli('webhooks', 'replay', id, '--after', 'YzA');
    expect(replay.code, replay.stderr).toBe(0);
    expect((await cli('webhooks', 'enable', id)).code).toBe(0);
    expect((await cli('webhooks', 'remove', id)).code).toBe(0);
    expect((await cli('webhooks', 'list')).stdout).toContain('No webhook endpoints.');
  }, 120_000);

  it('should answer --json with the secret in the object', async () => {
    const added = await spawnCli(
      { ...env, WEBHOOK_ALLOW_PRIVATE: 'true' },
      ['webhooks', 'add', 'http://127.0.0.1:9/x', '--json'],
      dir,
    );
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ url: 'http://127.0.0.1:9/x', enabled: true });
    expect(JSON.parse(added.stdout).secret).toMatch(SECRET);
  }, 60_000);

  it('should refuse bad input with exit 2 and unknown endpoints with exit 1', async () => {
    const privateUrl = await cli('webhooks', 'add', 'http://127.0.0.1:9/hook');
    expect(privateUrl.code).toBe(2);
    expect(privateUrl.stderr).toMatch(/loopback/);
    expect((await cli('webhooks', 'add', 'ftp://example.com/')).code).toBe(2);
    expect((await cli('webhooks', 'replay', '1', '--after', 'nope!')).code).toBe(2);
    expect((await cli('webhooks', 'replay', '1')).code).toBe(2);
    expect((await cli('webhooks', 'roll-secret', '1', '--grace', '3d')).code).toBe(2);
    expect((await cli('webhooks', 'deliveries', '1', '--limit', '0')).code).toBe(2);
    const unknown = await cli('webhooks', 'remove', '999');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no webhook endpoint with id 999');
  }, 120_000);
});
