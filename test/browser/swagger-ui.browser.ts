/**
 * Swagger UI in a real browser: `npm run test:browser` (after a build). Starts the built server
 * on a free port with a fresh SQLite database (development, so the demo catalogue is seeded),
 * issues a key with the CLI, then drives Debian's Chromium through playwright-core: authorize,
 * "Try it out" on listInventory and updateInventory, and the stability and deprecation
 * markings. Leaves a screenshot in artifacts/; `--update-docs` also copies it to docs/.
 * Exits non-zero on any failure, and always stops the server and the browser.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { freePort } from '../support/built-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const ARTIFACT = join(ROOT, 'artifacts', 'swagger-ui.png');
const FULL_ARTIFACT = join(ROOT, 'artifacts', 'swagger-ui-full.png');
const DOCS_SCREENSHOT = join(ROOT, 'docs', 'swagger-ui.png');
const DEADLINE_MS = 90_000;
const STEP_TIMEOUT_MS = 15_000;

const execFileAsync = promisify(execFile);

function log(line: string): void {
  process.stdout.write(`[browser] ${line}\n`);
}

interface Server {
  child: ChildProcess;
  output: () => string;
}

function startServer(env: NodeJS.ProcessEnv): Server {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return { child, output: () => output };
}

async function stopServer(server: Server | undefined): Promise<void> {
  const child = server?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

async function waitUntilReady(base: string, server: Server): Promise<void> {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (server.child.exitCode !== null) throw new Error(`the server exited:\n${server.output()}`);
    try {
      if ((await fetch(`${base}/health/ready`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server did not become ready:\n${server.output()}`);
}

async function api<T>(base: string, key: string, path: string): Promise<T> {
  const res = await fetch(`${base}/v1${path}`, { headers: { Authorization: `Bearer ${key}` } });
  assert.equal(res.status, 200, `GET ${path}`);
  return (await res.json()) as T;
}

/** Opens an operation, presses "Try it out", fills what `fill` fills, executes, and returns the live response. */
async function tryItOut(
  page: Page,
  id: string,
  fill: (op: ReturnType<Page['locator']>) => Promise<void> = async () => {},
) {
  const op = page.locator(`#operations-${id}`);
  await op.locator('.opblock-summary').first().click();
  await op.locator('button.try-out__btn').click();
  await fill(op);
  await op.locator('button.execute').click();
  const status = op.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor();
  const body = op.locator('.live-responses-table .response .response-col_description pre').first();
  await body.waitFor();
  return { op, status: (await status.innerText()).trim(), body: await body.innerText() };
}

let server: Server | undefined;

async function run(): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const workDir = mkdtempSync(join(tmpdir(), 'petstore-browser-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    APP_ENV: 'development',
    DATABASE_URL: `sqlite:${join(workDir, 'petstore.sqlite')}`,
    HOST: '127.0.0.1',
    PORT: String(port),
    // As `npm start` runs it: no configured addresses, so the document lists this server only.
    PUBLIC_BASE_URL: '',
    STAGING_BASE_URL: '',
    LOG_LEVEL: 'warn',
    REDIS_URL: '',
  };
  let context: BrowserContext | undefined;
  try {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium`);
    log(`starting the server on ${base}`);
    server = startServer(env);
    await waitUntilReady(base, server);

    const { stdout } = await execFileAsync(
      process.execPath,
      [
        join(ROOT, 'dist', 'cli', 'cli.js'),
        'keys',
        'create',
        '--plan',
        'pro',
        '--name',
        'browser-test',
      ],
      { cwd: ROOT, env },
    );
    const key = stdout.trim().split('\n').at(-1)!;
    assert.match(key, /^pk_test_[0-9A-Za-z]{32,}$/, 'the CLI printed a key');
    const [pet] = await api<{ petId: number; quantity: number }[]>(base, key, '/inventory');
    assert.ok(pet, 'the demo catalogue was seeded');

    context = await chromium.launchPersistentContext(join(workDir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    const page = context.pages()[0] ?? (await context.newPage());
    const failures: string[] = [];
    page.on('pageerror', (err) => failures.push(`page error: ${err.message}`));
    page.on('requestfailed', (req) =>
      failures.push(`request failed: ${req.url()} ${req.failure()?.errorText ?? ''}`),
    );

    log('opening /docs');
    await page.goto(`${base}/docs`);
    await page
      .locator('.swagger-ui .info .title', { hasText: 'Pet Store Inventory API' })
      .waitFor();
    const offered = await page.locator('.servers select option').allInnerTexts();
    assert.deepEqual(
      offered,
      ['/v1 - This server (development)'],
      'a local server, never Production',
    );

    log('authorizing with a key from the CLI');
    await page.locator('.auth-wrapper button.authorize').click();
    const modal = page.locator('.modal-ux');
    await modal.locator('input[type="text"], input[type="password"]').first().fill(key);
    await modal.locator('button.authorize').click();
    await modal.locator('button.btn-done').click();
    await page.reload();
    // persistAuthorization: the key survives a reload.
    await page.locator('.auth-wrapper button.authorize.locked').waitFor();

    log('running listInventory with "Try it out"');
    const list = await tryItOut(page, 'inventory-listInventory');
    assert.equal(list.status, '200', 'listInventory answers 200');
    assert.match(
      list.body,
      new RegExp(`"petId": ${pet.petId},`),
      `the listing shows pet ${pet.petId} from the database`,
    );

    log('running updateInventory with "Try it out"');
    const quantity = pet.quantity + 7;
    const update = await tryItOut(page, 'inventory-updateInventory', async (op) => {
      await op.locator('tr[data-param-name="petId"] input').fill(String(pet.petId));
      await op.locator('textarea.body-param__text').fill(JSON.stringify({ quantity }));
    });
    assert.equal(update.status, '200', 'updateInventory answers 200');
    assert.match(update.body, new RegExp(`"quantity": ${quantity},`));
    const stored = await api<{ petId: number; quantity: number }[]>(base, key, '/inventory');
    assert.equal(
      stored.find((item) => item.petId === pet.petId)?.quantity,
      quantity,
      'the update reached the database',
    );

    log('checking the stability and deprecation markings');
    const experimental = page.locator(
      '#operations-inventory-updateInventory .opblock-summary-description',
    );
    assert.match(await experimental.innerText(), /\[experimental\]/);
    assert.ok(await experimental.isVisible(), 'the experimental marking is visible');
    const beta = page.locator('#operations-inventory-listInventory .opblock-summary-description');
    assert.match(await beta.innerText(), /\[beta\]/);
    const deprecated = page.locator('#operations-pets-getPetById');
    assert.match((await deprecated.getAttribute('class')) ?? '', /opblock-deprecated/);
    assert.match(
      await deprecated.locator('.opblock-summary-description').innerText(),
      /\[deprecated\]/,
    );
    await deprecated.locator('.opblock-summary').first().click();
    await deprecated.getByText('Warning: Deprecated').waitFor({ state: 'visible' });
    assert.ok(
      await deprecated.getByText('x-stability').first().isVisible(),
      'x-stability is shown with the operation',
    );

    assert.deepEqual(failures, [], 'no script errors or failed requests');

    mkdirSync(join(ROOT, 'artifacts'), { recursive: true });
    await page.screenshot({ path: FULL_ARTIFACT, fullPage: true });
    // The overview: every operation collapsed, with its markings, under the locked Authorize button.
    for (const id of ['inventory-listInventory', 'inventory-updateInventory', 'pets-getPetById']) {
      await page.locator(`#operations-${id} .opblock-summary`).first().click();
      await page.locator(`#operations-${id} .opblock-body`).waitFor({ state: 'detached' });
    }
    await page.setViewportSize({ width: 1280, height: 1000 });
    await page.evaluate('document.activeElement?.blur(); window.scrollTo(0, 0)');
    await page.mouse.move(640, 150);
    await page.waitForTimeout(400);
    await page.screenshot({ path: ARTIFACT });
    log(`screenshots: ${ARTIFACT}, ${FULL_ARTIFACT}`);
    if (process.argv.includes('--update-docs')) {
      mkdirSync(join(ROOT, 'docs'), { recursive: true });
      copyFileSync(ARTIFACT, DOCS_SCREENSHOT);
      log(`copied to ${DOCS_SCREENSHOT}`);
    }
  } finally {
    await context?.close().catch(() => undefined);
    await stopServer(server);
    rmSync(workDir, { recursive: true, force: true });
  }
}

const deadline = setTimeout(() => {
  process.stderr.write(`[browser] FAILED: no result within ${DEADLINE_MS / 1000} s\n`);
  server?.child.kill('SIGKILL');
  process.exit(1);
}, DEADLINE_MS);

run().then(
  () => {
    clearTimeout(deadline);
    log('passed');
  },
  (err: unknown) => {
    clearTimeout(deadline);
    process.stderr.write(
      `[browser] FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 1;
  },
);
