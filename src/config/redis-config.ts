import { isIP } from 'node:net';
import { ConfigError, Env, int, optionalStr, str, url } from './env.parser.js';

export interface RedisNode {
  host: string;
  port: number;
}

export type RedisTopology =
  | { url: string }
  | {
      sentinel: { nodes: RedisNode[]; name: string; password: string | undefined };
      password: string | undefined;
    }
  | { clusterNodes: RedisNode[]; password: string | undefined };

export type RedisConfig = RedisTopology & { keyPrefix: string; commandTimeoutMs: number };

const TOPOLOGIES = ['REDIS_URL', 'REDIS_SENTINELS', 'REDIS_CLUSTER_NODES'] as const;
const MAX_NODES = 64;
const HOST =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
/** Sentinel master names are one word (`sentinel monitor <name> …`). */
const MASTER_NAME = /^[A-Za-z0-9._:-]{1,128}$/;
const MASKED = '***';

function node(entry: string): RedisNode | undefined {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(entry);
  if (match === null) return undefined;
  const host = match[1] ?? match[2];
  const port = Number(match[3]);
  if (port < 1 || port > 65_535) return undefined;
  if (match[1] !== undefined ? isIP(host) !== 6 : isIP(host) !== 4 && !HOST.test(host))
    return undefined;
  return { host, port };
}

function nodeList(env: Env, name: string, example: string): RedisNode[] {
  const value = optionalStr(env, name)!;
  const nodes = value.split(',').map((entry) => node(entry.trim()));
  if (nodes.length > MAX_NODES || nodes.some((entry) => entry === undefined))
    throw new ConfigError(
      name,
      `a comma-separated list of up to ${MAX_NODES} host:port (such as ${example})`,
      value,
    );
  return nodes as RedisNode[];
}

function refuseStray(env: Env, name: string, belongsTo: string): void {
  const value = optionalStr(env, name);
  if (value !== undefined)
    throw new ConfigError(
      name,
      `set only with ${belongsTo}`,
      name.endsWith('_PASSWORD') ? MASKED : value,
    );
}

// One of three topologies, never two: a service pointed at a Sentinel group and a stray REDIS_URL
// would count in whichever it picked, and instances configured alike would disagree.
export function redisConfig(env: Env): RedisConfig | undefined {
  const chosen = TOPOLOGIES.filter((name) => optionalStr(env, name) !== undefined);
  if (chosen.length > 1)
    throw new ConfigError(
      chosen[1],
      `unset when ${chosen[0]} is set (give exactly one of ${TOPOLOGIES.join(', ')})`,
      optionalStr(env, chosen[1])!,
    );
  const topology = chosen[0];
  if (topology !== 'REDIS_SENTINELS') {
    for (const name of ['REDIS_SENTINEL_NAME', 'REDIS_SENTINEL_PASSWORD'])
      refuseStray(env, name, 'REDIS_SENTINELS');
  }
  if (topology === undefined || topology === 'REDIS_URL')
    refuseStray(
      env,
      'REDIS_PASSWORD',
      topology === undefined
        ? 'REDIS_SENTINELS or REDIS_CLUSTER_NODES'
        : 'REDIS_SENTINELS or REDIS_CLUSTER_NODES (a REDIS_URL carries its own password)',
    );
  if (topology === undefined) return undefined;
  const common = {
    keyPrefix: str(env, 'REDIS_KEY_PREFIX', 'petstore:'),
    commandTimeoutMs: int(env, 'REDIS_COMMAND_TIMEOUT_MS', 500, 10, 60_000),
  };
  const password = optionalStr(env, 'REDIS_PASSWORD');
  if (topology === 'REDIS_URL')
    return { url: url(env, 'REDIS_URL', '', ['redis:', 'rediss:']), ...common };
  if (topology === 'REDIS_CLUSTER_NODES')
    return {
      clusterNodes: nodeList(env, 'REDIS_CLUSTER_NODES', 'redis-1:6379,redis-2:6379'),
      password,
      ...common,
    };
  const nodes = nodeList(env, 'REDIS_SENTINELS', 'sentinel-1:26379,sentinel-2:26379');
  const name = optionalStr(env, 'REDIS_SENTINEL_NAME') ?? '';
  if (!MASTER_NAME.test(name))
    throw new ConfigError(
      'REDIS_SENTINEL_NAME',
      'the name of the master the sentinels monitor, one word (required with REDIS_SENTINELS)',
      name,
    );
  return {
    sentinel: { nodes, name, password: optionalStr(env, 'REDIS_SENTINEL_PASSWORD') },
    password,
    ...common,
  };
}
