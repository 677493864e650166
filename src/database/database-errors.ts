import { ApiError } from '../common/errors/api-error.js';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// "Cannot serve you now", not "your statement is wrong"; class 08 is matched by prefix.
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the backend was terminated
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or in recovery
  '57014', // query_canceled: DB_STATEMENT_TIMEOUT_MS ran out
  '53300', // too_many_connections
  '3D000', // invalid_catalog_name: the database is gone
]);

/** pg reports its own timeouts and lost connections only in the message. */
const PG_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Query read timeout$/,
  /is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
];

const RELEASED_RUNNER_ERRORS = new Set([
  'QueryRunnerAlreadyReleasedError',
  'QueryRunnerProviderAlreadyReleasedError',
]);

const SQLITE_BUSY_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY']);

// Unreachable or too slow: answered 503 and retryable; anything else from the database is a bug.
export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let current = err, depth = 0;
    typeof current === 'object' && current !== null && depth < 5;
    depth++
  ) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || SQLITE_BUSY_CODES.has(code))
        return true;
      if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    }
    if (typeof message === 'string' && PG_MESSAGES.some((pattern) => pattern.test(message)))
      return true;
    // When a connection dies TypeORM releases its runner: the next statement fails with this.
    if (RELEASED_RUNNER_ERRORS.has(String((current as { name?: unknown }).name))) return true;
    if (
      current instanceof AggregateError &&
      current.errors.some((inner) => isDatabaseUnavailable(inner))
    )
      return true;
    current =
      (current as { driverError?: unknown }).driverError ?? (current as { cause?: unknown }).cause;
  }
  return false;
}

const LOST_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE', '57P01', '57P02']);

/** Unlike a timeout or a refused connect, a retry on another connection may well succeed. */
export function isConnectionLost(err: unknown): boolean {
  for (
    let current = err, depth = 0;
    typeof current === 'object' && current !== null && depth < 5;
    depth++
  ) {
    const { code, message, name } = current as {
      code?: unknown;
      message?: unknown;
      name?: unknown;
    };
    if (typeof code === 'string' && LOST_CONNECTION_CODES.has(code)) return true;
    if (typeof message === 'string') {
      // pg-pool's connect timeout wraps the "terminated unexpectedly" of the connection it cut
      // off: the server did not answer, and another connect would wait as long.
      if (/due to connection timeout$/.test(message)) return false;
      if (/^Connection terminated unexpectedly|is not queryable$/.test(message)) return true;
    }
    if (RELEASED_RUNNER_ERRORS.has(String(name))) return true;
    current =
      (current as { driverError?: unknown }).driverError ?? (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Unavailable, and not on a connection that broke: down, refusing or mute. A call that was waiting
 * behind this one would wait out the same timeout before its own 503, so it gets this one now.
 */
export function isUnanswered(err: unknown): boolean {
  return isDatabaseUnavailable(err) && !isConnectionLost(err);
}

export function databaseUnavailable(err: unknown): ApiError | undefined {
  if (!isDatabaseUnavailable(err)) return undefined;
  return new ApiError(
    'service_unavailable',
    'The database is unavailable or did not answer in time; retry shortly',
    { 'Retry-After': '1' },
  );
}
