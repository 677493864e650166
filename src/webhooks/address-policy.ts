import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, isIPv4, type LookupFunction } from 'node:net';

// With cloud metadata: 169.254.169.254 (link-local) and AWS's fd00:ec2::254 (unique-local).
const BLOCKED_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const BLOCKED_V6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['fe80::', 10],
  ['fc00::', 7],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
  // NAT64 local-use (RFC 8215) and Teredo (RFC 4380) reach hidden hosts, not a public receiver.
  ['64:ff9b:1::', 48],
  ['2001::', 32],
];

const blocked = new BlockList();
for (const [net, prefix] of BLOCKED_V4) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of BLOCKED_V6) blocked.addSubnet(net, prefix, 'ipv6');
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

function embeddedV4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::ffff:0:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower)?.[1];
  if (dotted) return dotted;
  const groups = expandV6(lower);
  if (!groups) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (groups.slice(0, 5).every((g) => g === 0) && (groups[5] === 0xffff || groups[5] === 0))
    return groups[5] === 0 && groups[6] === 0 ? undefined : v4(groups[6], groups[7]);
  if (groups.slice(0, 4).every((g) => g === 0) && groups[4] === 0xffff && groups[5] === 0)
    return v4(groups[6], groups[7]);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0))
    return v4(groups[6], groups[7]);
  if (groups[0] === 0x2002) return v4(groups[1], groups[2]);
  return undefined;
}

function expandV6(address: string): number[] | undefined {
  if (address.includes('.')) return undefined;
  const [head, tail] = address.split('::');
  const part = (text: string | undefined) => (text ? text.split(':') : []);
  const left = part(head);
  const right = part(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? left.length !== 8 : missing < 0) return undefined;
  return [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map(
    (g) => parseInt(g, 16),
  );
}

export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, '');
  if (isIPv4(bare)) return blocked.check(bare, 'ipv4');
  if (isIP(bare) !== 6) return true;
  const v4 = embeddedV4(bare);
  return blocked.check(bare, 'ipv6') || (v4 !== undefined && blocked.check(v4, 'ipv4'));
}

export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, '');
  if (isIPv4(bare)) return loopback.check(bare, 'ipv4');
  if (isIP(bare) !== 6) return false;
  const v4 = embeddedV4(bare);
  return loopback.check(bare, 'ipv6') || (v4 !== undefined && loopback.check(v4, 'ipv4'));
}

/** `localhost` and its subdomains (RFC 6761 §6.3). */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(name);
}

export interface UrlPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
  allowLoopback: boolean;
}

export function addressAllowed(policy: Omit<UrlPolicy, 'allowHttp'>, address: string): boolean {
  if (policy.allowPrivate || !isBlockedAddress(address)) return true;
  return policy.allowLoopback && isLoopbackAddress(address);
}

function refusal(host: string, addresses: string[]): string {
  const allLoopback = addresses.length > 0 && addresses.every(isLoopbackAddress);
  const what = isIP(host) ? 'is a loopback address' : 'resolves only to loopback addresses';
  return allLoopback
    ? `${host} ${what}, which webhooks reach only with WEBHOOK_ALLOW_LOOPBACK=true`
    : `${host} resolves only to addresses webhooks may not reach (loopback, private, link-local or metadata); WEBHOOK_ALLOW_PRIVATE=true allows them`;
}

export class BlockedAddressError extends Error {
  readonly code = 'EWEBHOOKBLOCKED';
  constructor(host: string, addresses: string[]) {
    super(refusal(host, addresses));
    this.name = 'BlockedAddressError';
  }
}

/** Hands the socket the addresses it checked, so a second resolution cannot rebind them. */
export function safeLookup(allowed: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const kept = addresses.filter((entry) => allowed(entry.address));
      if (kept.length === 0)
        return callback(
          new BlockedAddressError(
            hostname,
            addresses.map((entry) => entry.address),
          ),
          '',
          0,
        );
      if (options.all) return (callback as (e: null, a: typeof kept) => void)(null, kept);
      callback(null, kept[0].address, kept[0].family);
    });
  };
}

export class WebhookUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookUrlError';
  }
}

export const MAX_URL_LENGTH = 2048;

export function parseWebhookUrl(text: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookUrlError('URL must be an absolute https URL');
  }
  // What is stored and sent is the encoded form: each non-ASCII character becomes up to 12.
  if (text.length > MAX_URL_LENGTH || url.href.length > MAX_URL_LENGTH)
    throw new WebhookUrlError(
      `URL must be at most ${MAX_URL_LENGTH} characters once percent-encoded (this one has ${url.href.length})`,
    );
  const local = isLoopbackHost(hostOf(url));
  if (url.protocol === 'http:' && !policy.allowHttp && !(local && policy.allowLoopback))
    throw new WebhookUrlError(
      local
        ? 'URL must be https; http to this machine needs WEBHOOK_ALLOW_LOOPBACK=true'
        : 'URL must be https (WEBHOOK_ALLOW_HTTP=true allows http)',
    );
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new WebhookUrlError(
      policy.allowHttp || policy.allowLoopback ? 'URL must be http or https' : 'URL must be https',
    );
  if (url.username || url.password) throw new WebhookUrlError('URL must not contain credentials');
  if (url.hash) throw new WebhookUrlError('URL must not contain a fragment');
  return url;
}

export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export async function checkWebhookUrl(text: string, policy: UrlPolicy): Promise<URL> {
  const url = parseWebhookUrl(text, policy);
  const host = hostOf(url);
  const loopbackOnly = url.protocol === 'http:' && !policy.allowHttp;
  const allowed = (address: string) =>
    loopbackOnly ? isLoopbackAddress(address) : addressAllowed(policy, address);
  if (isIP(host)) {
    if (!allowed(host))
      throw new WebhookUrlError(
        isLoopbackAddress(host)
          ? refusal(host, [host])
          : `${host} is a loopback, private, link-local or metadata address; WEBHOOK_ALLOW_PRIVATE=true allows it`,
      );
    return url;
  }
  await new Promise<void>((resolve, reject) =>
    safeLookup(allowed)(host, { all: true }, (err) => {
      if (!err) return resolve();
      reject(
        new WebhookUrlError(
          err instanceof BlockedAddressError
            ? err.message
            : `${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? err.message})`,
        ),
      );
    }),
  );
  return url;
}
