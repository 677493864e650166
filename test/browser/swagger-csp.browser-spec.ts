import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/create-test-app.js';

/** A system Chromium (CHROMIUM_PATH, or a usual location); playwright-core downloads none. */
function chromiumPath(): string | undefined {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  return candidates.find((path) => path !== undefined && existsSync(path));
}

describe('Swagger UI under its Content-Security-Policy (browser)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('should render Swagger UI in a browser without a single policy violation or failed asset', async () => {
    const executablePath = chromiumPath();
    expect(executablePath, 'install Chromium or set CHROMIUM_PATH').toBeDefined();
    const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning')
          problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('requestfailed', (failed) => problems.push(`failed: ${failed.url()}`));
      await page.goto(`http://127.0.0.1:${port}/docs`);
      await page.waitForSelector('.swagger-ui .info .title', { timeout: 15_000 });
      expect(await page.textContent('.swagger-ui .info .title')).toContain(
        'Pet Store Inventory API',
      );
      await page.waitForSelector('.opblock-summary-path', { timeout: 15_000 });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
