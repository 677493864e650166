// Lints the OpenAPI document exactly as the built server serves it, under each configuration
// that changes it, with Spectral's OpenAPI rules: any error or warning fails.
/* global fetch */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../dist/app.module.js';
import { ApiExpressAdapter } from '../dist/platform/http/index.js';
import { loadConfig } from '../dist/config/app-config.js';
import { APP_OPTIONS, configureApp } from '../dist/configure-app.js';

const CONFIGURATIONS = {
  development: {},
  production: {
    APP_ENV: 'production',
    PUBLIC_BASE_URL: 'https://api.petstore.example/v1',
    STAGING_BASE_URL: 'https://staging.petstore.example/v1',
  },
  'rate-limit-off': { RATE_LIMIT_ENABLED: 'false' },
};

async function servedDocument(env) {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', ...env });
  const app = configureApp(
    await NestFactory.create(
      AppModule.forRoot(config),
      new ApiExpressAdapter(config.http.timeouts),
      {
        ...APP_OPTIONS,
        logger: false,
      },
    ),
    config,
  );
  try {
    await app.listen(0, '127.0.0.1');
    const res = await fetch(`${await app.getUrl()}/v1/openapi.json`);
    if (res.status !== 200) throw new Error(`GET /v1/openapi.json answered ${res.status}`);
    return await res.text();
  } finally {
    await app.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'petstore-openapi-'));
try {
  const files = [];
  for (const [name, env] of Object.entries(CONFIGURATIONS)) {
    const file = join(dir, `openapi.${name}.json`);
    writeFileSync(file, await servedDocument(env));
    files.push(file);
  }
  const result = spawnSync(
    join('node_modules', '.bin', 'spectral'),
    ['lint', '--ruleset', '.spectral.yaml', '--fail-severity=warn', ...files],
    { stdio: 'inherit' },
  );
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
