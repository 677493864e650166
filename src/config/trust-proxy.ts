import { isIP } from 'node:net';
import { ConfigError } from './env.parser.js';

export type TrustProxy = false | number | string[];

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);
const FALSE = new Set(['false', '0', 'no', 'off']);
const ACCEPTS =
  'false, a number of proxy hops (1, 2, …) or a comma-separated list of proxy addresses or CIDRs ' +
  '(or loopback, linklocal, uniquelocal)';

function isAddressOrCidr(entry: string): boolean {
  if (NAMED.has(entry)) return true;
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash < 0) return true;
  const bits = entry.slice(slash + 1);
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

// `true` is refused: it would believe the leftmost X-Forwarded-For entry, which a client writes
// itself behind any proxy that appends to the header.
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim().toLowerCase() ?? '';
  if (text === '' || FALSE.has(text)) return false;
  if (['true', 'yes', 'on'].includes(text)) {
    throw new ConfigError(
      'TRUST_PROXY',
      'the number of proxies in front of the service (e.g. 1) or their addresses ' +
        '(e.g. loopback or 10.0.0.0/8), not true, which lets any client choose its own address',
      value ?? '',
    );
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 100) throw new ConfigError('TRUST_PROXY', ACCEPTS, value ?? '');
    return hops;
  }
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.find((entry) => !isAddressOrCidr(entry));
  if (entries.length === 0 || bad !== undefined) {
    throw new ConfigError('TRUST_PROXY', ACCEPTS, bad ?? value ?? '');
  }
  return entries;
}
