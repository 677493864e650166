import { Controller, Get, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { SkipThrottle, Throttle } from '@nestjs/throttler';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppModule } from '../src/app.module.js';
import { ApiKeysService } from '../src/auth/api-keys.service.js';
import { loadConfig } from '../src/config/app-config.js';
import { APP_OPTIONS, configureApp } from '../src/configure-app.js';
import { ApiExpressAdapter } from '../src/platform/http/index.js';
import { RateLimitCost } from '../src/rate-limit/rate-limit-cost.decorator.js';
import { useRateLimitClock } from './support/manual-clock.js';

/** Routes that exist only here, to show the limiter honours the throttler's decorators. */
@ApiExcludeController()
@Controller('v1/probe')
class ProbeController {
  @Get('plain')
  plain(): { ok: true } {
    return { ok: true };
  }

  @Get('skipped')
  @SkipThrottle({ minute: true, day: true })
  skipped(): { ok: true } {
    return { ok: true };
  }

  @Get('tight')
  @Throttle({ minute: { limit: 2, ttl: 60_000 } })
  tight(): { ok: true } {
    return { ok: true };
  }

  @Get('lines')
  @RateLimitCost((req) => Number(req.query.lines))
  lines(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe("the throttler's decorators through the app's limiter (e2e)", () => {
  let app: NestExpressApplication;
  let key: string;
  const clock = useRateLimitClock(() => ({ app }) as never);

  beforeAll(async () => {
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
    // Imported first, so its routes come before the app's catch-all.
    const moduleRef = await Test.createTestingModule({
      imports: [ProbeModule, AppModule.forRoot(config)],
    }).compile();
    app = configureApp(
      moduleRef.createNestApplication<NestExpressApplication>(
        new ApiExpressAdapter(config.http.timeouts),
        APP_OPTIONS,
      ),
      config,
    );
    await app.init();
  });
  afterAll(() => app?.close());
  beforeEach(async () => {
    key = (await app.get(ApiKeysService).create({ plan: 'free' })).rawKey;
  });

  const get = (path: string) =>
    request(app.getHttpServer()).get(path).set('Authorization', `Bearer ${key}`);

  it('should neither count nor limit a route with @SkipThrottle() for every window', async () => {
    for (let i = 0; i < 65; i++) {
      const res = await get('/v1/probe/skipped').expect(200);
      expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
    }
    expect((await get('/v1/probe/plain').expect(200)).headers['x-ratelimit-remaining']).toBe('59');
  });

  it("should hold a route with @Throttle() to its own limit, the plan's other routes unaffected", async () => {
    await get('/v1/probe/tight').expect(200);
    const second = await get('/v1/probe/tight').expect(200);
    expect(second.headers).toMatchObject({
      'x-ratelimit-limit': '2',
      'x-ratelimit-remaining': '0',
    });
    const refused = await get('/v1/probe/tight').expect(429);
    expect(refused.body.message).toContain('minute quota of 2');
    expect((await get('/v1/probe/plain').expect(200)).headers['x-ratelimit-remaining']).toBe('59');
    clock.advance(60_000);
    await get('/v1/probe/tight').expect(200);
  });

  it('should count a @RateLimitCost() route by its cost, refusing whole and counting nothing when it does not fit', async () => {
    expect(
      (await get('/v1/probe/lines?lines=45').expect(200)).headers['x-ratelimit-remaining'],
    ).toBe('15');
    const refused = await get('/v1/probe/lines?lines=16').expect(429);
    expect(refused.body.code).toBe('rate_limit_exceeded');
    expect(refused.headers['x-ratelimit-remaining']).toBe('15');
    expect(
      (await get('/v1/probe/lines?lines=15').expect(200)).headers['x-ratelimit-remaining'],
    ).toBe('0');
  });
});
