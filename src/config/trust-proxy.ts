import { isIP } from 'node:net';
import { ConfigError } from './env.parser.js';

export type TrustProxy = false | number | string[];

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);
const FALSE = new Set(['false', '0', 'no', 'off']);
const ACCEPTS =
  'false, a number of proxy hops (1, 2, …) or a comma-separated list of proxy addresses or CIDRs ' +
  '(or loopback, linklocal, uniquelocal)';

interface Range {
  family: 4 | 6;
  start: bigint;
  prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;
/** The widest range an operator may trust: a range wider than this is a network, not proxies. */
const MIN_PREFIX = { 4: 8, 6: 32 } as const;

// What Express (proxy-addr) trusts for each name.
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

function ipv4Bits(address: string): bigint {
  return address.split('.').reduce((bits, octet) => (bits << 8n) | BigInt(Number(octet)), 0n);
}

function ipv6Bits(address: string): bigint {
  let text = address.split('%')[0];
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    const v4 = ipv4Bits(text.slice(lastColon + 1));
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const before = head ? head.split(':') : [];
  const after = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? before
      : [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
  return groups.reduce((bits, group) => (bits << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const MAPPED_PREFIX = 0xffffn << 32n;

/** The range an entry names, or undefined when it is not an address or CIDR. */
function rangeOf(entry: string): Range | undefined {
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family !== 4 && family !== 6) return undefined;
  const bits = slash < 0 ? String(BITS[family]) : entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > BITS[family]) return undefined;
  const prefix = Number(bits);
  if (family === 4) return { family, start: ipv4Bits(address), prefix };
  const start = ipv6Bits(address);
  // Express trusts an IPv4-mapped range (::ffff:a.b.c.d/N) as the IPv4 range /N-96.
  if (start >> 32n === 0xffffn)
    return { family: 4, start: start - MAPPED_PREFIX, prefix: prefix - 96 };
  return { family, start, prefix };
}

/** Whether the ranges together hold every address of a family. */
function coversEverything(ranges: Range[], family: 4 | 6): boolean {
  const size = 1n << BigInt(BITS[family]);
  const spans = ranges
    .filter((range) => range.family === family)
    .map((range) => {
      const length = 1n << BigInt(BITS[family] - Math.max(range.prefix, 0));
      const start = (range.start / length) * length;
      return [start, start + length] as const;
    })
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let covered = 0n;
  for (const [start, end] of spans) {
    if (start > covered) return false;
    if (end > covered) covered = end;
  }
  return covered >= size;
}

const BOUNDS =
  'proxy addresses or ranges no wider than /8 (IPv4) or /32 (IPv6), which together do not ' +
  'include every address: trusting every address lets any client choose its own';

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
  const bad = entries.find((entry) => !NAMED.has(entry) && rangeOf(entry) === undefined);
  if (entries.length === 0 || bad !== undefined) {
    throw new ConfigError('TRUST_PROXY', ACCEPTS, bad ?? value ?? '');
  }
  const ranges = entries.flatMap((entry) =>
    NAMED.has(entry) ? NAMED_RANGES[entry].map((named) => rangeOf(named)!) : [rangeOf(entry)!],
  );
  const wide = entries.find((entry) => {
    const range = NAMED.has(entry) ? undefined : rangeOf(entry)!;
    return range !== undefined && range.prefix < MIN_PREFIX[range.family];
  });
  if (wide !== undefined) throw new ConfigError('TRUST_PROXY', BOUNDS, wide);
  if (coversEverything(ranges, 4) || coversEverything(ranges, 6)) {
    throw new ConfigError('TRUST_PROXY', BOUNDS, value ?? '');
  }
  return entries;
}
