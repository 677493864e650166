/** Names the bad variable and what it accepts; the value shown never includes a URL's secrets. */
export class ConfigError extends Error {
  readonly received: string;

  constructor(
    readonly variable: string,
    readonly accepts: string,
    received: string,
  ) {
    const shown = hideSecrets(received);
    super(`${variable} must be ${accepts} (got ${JSON.stringify(shown)})`);
    this.received = shown;
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

// Everything before the last `@` is hidden, also when mistyped so the URL does not parse.
function hideUserinfo(value: string): string {
  return value.includes('@') ? value.replace(/^([a-z][a-z0-9+.-]*:\/*)?[^]*@/i, '$1***@') : value;
}

/**
 * Query parameters that carry or point to credentials: libpq's password, sslpassword, sslkey,
 * and the password, token, key and secret spellings of drivers and services.
 */
const SECRET_PARAMETER = /pass|pwd|secret|token|key|auth|cred|sig|session/i;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * A value fit for an error message: a URL's user and password, the values of its secret query
 * parameters and its fragment become `***`, by text, so a URL too broken to parse is hidden too.
 */
export function hideSecrets(value: string): string {
  return hideUserinfo(value)
    .replace(/([?&;])([^=&;#]*)=([^&;#]*)/g, (parameter, separator: string, name: string) =>
      SECRET_PARAMETER.test(decoded(name)) ? `${separator}${name}=***` : parameter,
    )
    .replace(/#[^]+$/, '#***');
}

/** Reads one variable; empty strings count as unset so `FOO=` falls back to the default. */
function raw(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

export function str(env: Env, name: string, fallback: string): string {
  return raw(env, name) ?? fallback;
}

export function optionalStr(env: Env, name: string): string | undefined {
  return raw(env, name);
}

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(name, `an integer from ${min} to ${max}`, value);
  }
  return Number(value);
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (TRUE.includes(value)) return true;
  if (FALSE.includes(value)) return false;
  throw new ConfigError(name, `one of ${[...TRUE, ...FALSE].join(', ')}`, value);
}

export function oneOf<T extends string>(
  env: Env,
  name: string,
  values: readonly T[],
  fallback: T,
): T {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!(values as readonly string[]).includes(value)) {
    throw new ConfigError(name, `one of ${values.join(' | ')}`, value);
  }
  return value as T;
}

export function url(
  env: Env,
  name: string,
  fallback: string,
  protocols: readonly string[],
): string {
  const value = raw(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, `a URL (${protocols.join(', ')})`, value);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `a URL (${protocols.join(', ')})`, value);
  }
  return value;
}

export function date(env: Env, name: string, fallback: string): Date {
  const value = raw(env, name) ?? fallback;
  const parsed = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(value)
    ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value)
    : new Date(NaN);
  if (Number.isNaN(parsed.getTime())) {
    throw new ConfigError(name, 'an ISO 8601 date such as 2027-06-30', value);
  }
  return parsed;
}
