import { makeCatalog, mulberry32, prepareDatabase, writeCatalog } from '../lib/fixtures.js';
import {
  type RedisCluster,
  RedisServers,
  type SentinelGroup,
  startCluster,
  startSentinelGroup,
} from '../lib/redis-servers.js';
import { fmt } from '../lib/report.js';
import type { Target } from '../lib/servers.js';
import type { TracingBench } from './tracing.js';

const ONE = 'limiter on one Redis';
const SENTINEL = 'limiter on Sentinel';
const CLUSTER = 'limiter on a Cluster';
/** The contract's bounds: server CPU per counted GET against the same GET on one Redis. */
const BOUNDS = { [SENTINEL]: 1.05, [CLUSTER]: 1.15 } as const;

/**
 * A counted GET with the limiter on one Redis, on a Sentinel group (master, replica, three
 * sentinels) and on a six-node Cluster, each started here from redis-server in a temporary
 * folder, so the three servers are alike and nobody else's load is on them.
 */
export async function redisTopologiesScenario(bench: TracingBench): Promise<void> {
  const { options, log } = bench;
  const rows = makeCatalog(options.items);
  const catalog = writeCatalog(bench.work, rows);
  const petIds = rows.map((row) => row.petId);
  const servers: RedisServers[] = [];
  const targets: Target[] = [];
  try {
    const single = new RedisServers();
    servers.push(single);
    const one = await single.server();
    const group: SentinelGroup = await startSentinelGroup();
    servers.push(group.servers);
    const cluster: RedisCluster = await startCluster();
    servers.push(cluster.servers);
    log(`  redis: one Redis ${one.address}, Sentinel and a Cluster in ${group.servers.dir}`);
    const specs: [string, Record<string, string>][] = [
      [ONE, { REDIS_URL: `redis://${one.address}` }],
      [
        SENTINEL,
        {
          REDIS_SENTINELS: group.sentinels.map((sentinel) => sentinel.address).join(','),
          REDIS_SENTINEL_NAME: group.name,
        },
      ],
      [CLUSTER, { REDIS_CLUSTER_NODES: cluster.nodes.map((node) => node.address).join(',') }],
    ];
    for (const [i, [name, env]] of specs.entries()) {
      const database = prepareDatabase(bench.work, `redis-topology-${i}`, catalog);
      // A generous timeout: on a loaded machine a 503 would spoil the round's comparison.
      const timeout = { REDIS_COMMAND_TIMEOUT_MS: '5000' };
      targets.push(
        await bench.start(
          bench.service(name, database.databaseUrl, database.apiKey, { ...env, ...timeout }),
        ),
      );
    }
    let seed = 1;
    const results = await bench.alternate('GET pet on Redis', targets, (target) => {
      const random = mulberry32(seed++);
      return [
        {
          method: 'GET',
          path: `/v1/inventory/${petIds[0]}`,
          headers: target.headers,
          setupRequest: (request) => ({
            ...request,
            path: `/v1/inventory/${petIds[Math.floor(random() * petIds.length)]}`,
          }),
        },
      ];
    });
    bench.throughputTable(
      `GET /v1/inventory/{random petId}, counted, with the limiter on one Redis, Sentinel and a Cluster (${options.connections} connections)`,
      results,
      ONE,
    );
    const figures: Record<string, unknown> = {};
    for (const name of [SENTINEL, CLUSTER] as const) {
      const perRound = results[name].map(
        (run, i) => run.cpuUsPerResponse / results[ONE][i].cpuUsPerResponse,
      );
      const cpu = bench.ratio(results, name, ONE, (run) => run.cpuUsPerResponse);
      bench.check(
        `Redis: counted GET, server CPU per request, ${name} vs one Redis (rounds ${fmt.ratio(Math.min(...perRound))}–${fmt.ratio(Math.max(...perRound))})`,
        fmt.ratio(cpu),
        `<= ${BOUNDS[name].toFixed(2)}x`,
        cpu <= BOUNDS[name],
      );
      figures[name] = {
        cpuVsOne: cpu,
        cpuVsOnePerRound: perRound,
        rpsVsOne: bench.ratio(results, name, ONE, (run) => run.rps),
      };
    }
    const errors = bench.failures(Object.values(results).flat(), (status) => status === 200);
    bench.check(
      'Redis: counted GET, non-200 responses and errors',
      String(errors),
      '0',
      errors === 0,
    );
    bench.report.redisTopologies = { ...figures, runs: bench.summarise(results) };
  } finally {
    await bench.stop(...targets);
    await Promise.all(servers.map((server) => server.stop()));
  }
}
