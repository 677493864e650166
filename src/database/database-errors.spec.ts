import {
  QueryFailedError,
  QueryRunnerAlreadyReleasedError,
  QueryRunnerProviderAlreadyReleasedError,
} from 'typeorm';
import { describe, expect, it } from 'vitest';
import { isConnectionLost, isDatabaseUnavailable } from './database-errors.js';

function withCode(code: string, message = 'driver error'): Error {
  return Object.assign(new Error(message), { code });
}

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', withCode('ECONNRESET')],
    ['an unknown host', withCode('ENOTFOUND')],
    [
      'a terminated backend',
      withCode('57P01', 'terminating connection due to administrator command'),
    ],
    ['a statement timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['a dropped database', withCode('3D000', 'database "x" does not exist')],
    ['too many connections', withCode('53300')],
    ['a transaction whose connection died under it', new QueryRunnerAlreadyReleasedError()],
    [
      'a statement on a runner whose connection died under it',
      new QueryRunnerProviderAlreadyReleasedError(),
    ],
    ['a connection exception class 08', withCode('08006')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('Connection terminated due to connection timeout')],
    ['a pool wait timeout', new Error('timeout exceeded when trying to connect')],
    ['a client-side query timeout', new Error('Query read timeout')],
    ['a busy SQLite file', withCode('SQLITE_BUSY', 'database is locked')],
    [
      'several refused addresses',
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]),
    ],
  ])('should recognise %s', (_label, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it('should look through TypeORM and cause wrappers to the driver error', () => {
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT 1', [], withCode('57P01')))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: withCode('ECONNREFUSED') }))).toBe(
      true,
    );
  });

  it.each([
    [
      'a missing table',
      new QueryFailedError('SELECT 1', [], withCode('42P01', 'relation "pets" does not exist')),
    ],
    ['a constraint violation', withCode('23514', 'violates check constraint')],
    ['a syntax error', withCode('42601')],
    ['a SQLite constraint', withCode('SQLITE_CONSTRAINT_CHECK')],
    ['a plain bug', new TypeError('x is undefined')],
    ['a non-error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('should leave %s to be a 500', (_label, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});

describe('isConnectionLost', () => {
  it.each([
    ['a terminated backend', new QueryFailedError('SELECT 1', [], withCode('57P01'))],
    ['a reset connection', withCode('ECONNRESET')],
    ['a connection that ended mid-statement', new Error('Connection terminated unexpectedly')],
    [
      'a client whose connection failed earlier',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['a runner whose connection was let go', new QueryRunnerProviderAlreadyReleasedError()],
  ])('should tell %s, which another connection may serve', (_label, err) => {
    expect(isConnectionLost(err)).toBe(true);
  });

  it.each([
    ['a client-side query timeout', new Error('Query read timeout')],
    [
      "the pool's connect timeout, wrapping the connection it cut off",
      new Error('Connection terminated due to connection timeout', {
        cause: new Error('Connection terminated unexpectedly'),
      }),
    ],
    ['a refused connect', withCode('ECONNREFUSED')],
    ['a statement timeout', withCode('57014')],
    ['a constraint violation', withCode('23514')],
  ])('should not take %s for a lost connection', (_label, err) => {
    expect(isConnectionLost(err)).toBe(false);
  });
});
