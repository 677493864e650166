import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey } from './support/demo-key.js';
import {
  ensureBuilt,
  freePort,
  ROOT,
  type RunningServer,
  spawnCli,
  startServer,
} from './support/built-server.js';

/** docs/webhooks.md's local steps (```` ```sh local-webhook ````), one command per entry. */
function localSteps(): string[] {
  const page = readFileSync(join(ROOT, 'docs', 'webhooks.md'), 'utf8');
  return [...page.matchAll(/^```sh local-webhook\n([\s\S]*?)^```$/gm)].flatMap(([, block]) =>
    block
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}

/** A process started by bash whose output is watched for a line. */
function startShell(command: string, env: NodeJS.ProcessEnv) {
  // Its own process group: npx starts the receiver as a grandchild, stopped with the group.
  const child = spawn('bash', ['-c', command], { cwd: ROOT, env, detached: true });
  let output = '';
  const written = new EventEmitter();
  for (const stream of [child.stdout, child.stderr])
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      written.emit('data');
    });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const look = () => {
        const match = pattern.exec(output);
        if (match) {
          written.off('data', look);
          resolve(match);
        } else if (child.exitCode !== null) reject(new Error(`exited early:\n${output}`));
      };
      written.on('data', look);
      void exited.then(look);
      look();
    });
  return { child, waitFor, exited, output: () => output };
}

async function stop(child: ChildProcess, exited: Promise<void>) {
  if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

describe("docs/webhooks.md's local receiver, as a newcomer follows it (e2e)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-webhooks-local-'));
  // What a first start has (development by default), and the one setting the page names.
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'petstore.sqlite')}`,
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_LOOPBACK: 'true',
  };
  const [add, receive, patch] = localSteps();
  let server: RunningServer;
  let key: string;

  beforeAll(async () => {
    await ensureBuilt();
    server = await startServer(env);
    key = await demoKey(server);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should document the three steps: add the local receiver, run the example, change stock', () => {
    expect(readFileSync(join(ROOT, 'docs', 'webhooks.md'), 'utf8')).toContain(
      'Start the\nserver with `WEBHOOK_ALLOW_LOOPBACK=true npm start`',
    );
    expect(add).toMatch(
      /^WEBHOOK_ALLOW_LOOPBACK=true npm run --silent cli -- webhooks add http:\/\/localhost:8080\//,
    );
    expect(receive).toMatch(
      /^WEBHOOK_SECRET=whsec_… PORT=8080 npx tsx examples\/webhook-receiver\.ts$/,
    );
    expect(patch).toMatch(/^curl -X PATCH .*localhost:3000\/v1\/inventory\/4$/);
  });

  it('should deliver a signed change to the example receiver on localhost, and log a failed attempt at warn', async () => {
    const receiverPort = await freePort();
    const local = (command: string) =>
      command
        .replaceAll('localhost:8080', `localhost:${receiverPort}`)
        .replaceAll('PORT=8080', `PORT=${receiverPort}`)
        .replaceAll('localhost:3000', new URL(server.url).host);
    const shellEnv: NodeJS.ProcessEnv = { ...process.env, ...env, KEY: key };
    delete shellEnv.APP_ENV;

    const added = spawnSync('bash', ['-eo', 'pipefail', '-c', local(add)], {
      cwd: ROOT,
      env: shellEnv,
      encoding: 'utf8',
    });
    expect(added.status, added.stderr).toBe(0);
    const secret = added.stdout.trimEnd().split('\n').at(-1)!;
    expect(secret).toMatch(/^whsec_/);
    const endpointId = /webhook endpoint (\d+)/.exec(added.stdout)![1];

    const receiver = startShell(local(receive).replace('whsec_…', secret), shellEnv);
    try {
      await receiver.waitFor(/Listening on/);
      const changed = spawnSync('bash', ['-eo', 'pipefail', '-c', local(patch)], {
        cwd: ROOT,
        env: shellEnv,
        encoding: 'utf8',
      });
      expect(changed.status, changed.stderr).toBe(0);
      expect(changed.stdout).toContain('"quantity":7');
      // Printed only for a message whose signature the standardwebhooks package verified.
      await receiver.waitFor(/pet 4: 0 -> 7 \(available\)/);
    } finally {
      await stop(receiver.child, receiver.exited);
    }

    // Nobody listens any more: the server says so, with the endpoint, the reason and when next.
    const again = spawnSync('bash', ['-eo', 'pipefail', '-c', local(patch).replace('7}', '8}')], {
      cwd: ROOT,
      env: shellEnv,
      encoding: 'utf8',
    });
    expect(again.status, again.stderr).toBe(0);
    const [line] = await server.waitForOutput(
      new RegExp(`^.*Webhook endpoint ${endpointId}: attempt 1 of change \\d+ failed.*$`, 'm'),
    );
    const logged = JSON.parse(line) as { level: number; msg: string };
    expect(logged.level).toBe(40);
    expect(logged.msg).toMatch(
      /failed \(ECONN(REFUSED|RESET)\); next attempt at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
    );
    expect(logged.msg).not.toContain(String(receiverPort));
  }, 120_000);

  it('should refuse the local receiver without the setting, in every environment, with one line naming it', async () => {
    const refused = await spawnCli({ ...env, WEBHOOK_ALLOW_LOOPBACK: 'false' }, [
      'webhooks',
      'add',
      'http://localhost:8080/',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^Error: .*WEBHOOK_ALLOW_LOOPBACK=true/),
    ]);
    const https = await spawnCli({ ...env, WEBHOOK_ALLOW_LOOPBACK: 'false', APP_ENV: 'staging' }, [
      'webhooks',
      'add',
      'https://localhost:8443/',
    ]);
    expect(https.code).toBe(2);
    expect(https.stderr.trimEnd().split('\n')).toEqual([
      'Error: localhost resolves only to loopback addresses, which webhooks reach only with WEBHOOK_ALLOW_LOOPBACK=true',
    ]);
  }, 60_000);
});
