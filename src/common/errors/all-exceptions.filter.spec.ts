import { ConsoleLogger, Logger, type ArgumentsHost } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_LOGGED_CHARS } from '../logging/log-redaction.js';
import { AllExceptionsFilter } from './all-exceptions.filter.js';

function hostFor(req: object) {
  const res = { headersSent: false, setHeader: vi.fn(), status: vi.fn(), end: vi.fn() };
  res.status.mockReturnValue(res);
  const host = {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ArgumentsHost;
  return { host, res };
}

describe('AllExceptionsFilter', () => {
  afterEach(() => Logger.overrideLogger(new ConsoleLogger()));

  it("should log a failed statement's error bounded and masked, without its parameters", () => {
    const error = vi.fn();
    Logger.overrideLogger({ log: vi.fn(), warn: vi.fn(), error });
    const clientText = 'x'.repeat(13_000);
    const keyShaped = `pk_test_${'A1b2C3d4'.repeat(5)}`;
    const failed = new QueryFailedError(
      'INSERT INTO inventory_changes (reference) VALUES ($1)',
      [clientText, keyShaped],
      Object.assign(new Error(`invalid byte sequence near "${keyShaped}${clientText}"`), {
        code: '22021',
      }),
    );
    const { host } = hostFor({ method: 'PATCH', path: '/v1/inventory/1', id: 'req-1' });
    new AllExceptionsFilter().catch(failed, host);

    expect(error).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify(error.mock.calls[0]);
    expect(logged).not.toContain(keyShaped);
    expect(logged).not.toContain('x'.repeat(MAX_LOGGED_CHARS + 1));
    expect(logged.length).toBeLessThan(3 * MAX_LOGGED_CHARS);
    expect(error.mock.calls[0][0]).toMatchObject({
      err: { type: 'QueryFailedError', code: '22021' },
      reqId: 'req-1',
    });
  });
});
