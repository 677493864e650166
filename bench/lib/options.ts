import { parseArgs } from 'node:util';

export const SCENARIOS = [
  'get',
  'patch',
  'large',
  'sync',
  'soak',
  'abuse',
  'storm',
  'deployed',
  'webhooks',
  'instructions',
  'adjust',
  'bursts',
  'tracing',
  'redis',
  'holds',
] as const;
export type Scenario = (typeof SCENARIOS)[number];
/** Instruction counts need valgrind and take minutes per server: run only when asked for. */
const DEFAULT_SCENARIOS: readonly Scenario[] = [
  'get',
  'patch',
  'large',
  'sync',
  'soak',
  'abuse',
  'storm',
  'deployed',
  'adjust',
  'tracing',
  'redis',
  'holds',
];

export interface BenchOptions {
  /** Measurement rounds; every target runs once per round, in an order that rotates. */
  rounds: number;
  /** Seconds per target per round. */
  duration: number;
  /** Seconds of load per target before the first round (JIT, caches, connection pools). */
  warmup: number;
  connections: number;
  items: number;
  largeItems: number;
  /** Seconds at saturation for the soak; 0 skips it. */
  soak: number;
  scenarios: Set<Scenario>;
  redisUrl: string | undefined;
  /** A PostgreSQL server on which the abuse and deployed scenarios create (and drop) databases of their own. */
  postgresUrl: string;
  out: string;
}

const FLAGS = {
  rounds: ['BENCH_ROUNDS', 5],
  duration: ['BENCH_DURATION', 4],
  warmup: ['BENCH_WARMUP', 3],
  connections: ['BENCH_CONNECTIONS', 32],
  items: ['BENCH_ITEMS', 100],
  'large-items': ['BENCH_LARGE_ITEMS', 100_000],
  soak: ['BENCH_SOAK', 60],
} as const;

const QUICK = { rounds: 2, duration: 2, warmup: 1, soak: 10 };

export const FULL_RESULTS = 'bench/results/latest.json';
export const PARTIAL_RESULTS = 'bench/results/partial.json';

function positive(name: string, text: string, allowZero: boolean): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1))
    throw new Error(`--${name} must be an integer >= ${allowZero ? 0 : 1} (got ${text})`);
  return n;
}

/** Flags win over environment variables, which win over `--quick`, which wins over defaults. */
export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...Object.fromEntries(Object.keys(FLAGS).map((name) => [name, { type: 'string' as const }])),
      only: { type: 'string' },
      out: { type: 'string' },
      quick: { type: 'boolean' },
    },
    strict: true,
  });
  const quick = values.quick === true || env.BENCH_QUICK === '1';
  const number = (name: keyof typeof FLAGS): number => {
    const [variable, fallback] = FLAGS[name];
    const given = (values as Record<string, string | undefined>)[name] ?? env[variable];
    if (given !== undefined) return positive(name, given, name === 'soak');
    return quick && name in QUICK ? QUICK[name as keyof typeof QUICK] : fallback;
  };
  const only = (values.only as string | undefined) ?? env.BENCH_ONLY;
  const scenarios = new Set<Scenario>(only ? (only.split(',') as Scenario[]) : DEFAULT_SCENARIOS);
  for (const scenario of scenarios) {
    if (!SCENARIOS.includes(scenario))
      throw new Error(`--only takes ${SCENARIOS.join(',')} (got ${scenario})`);
  }
  return {
    rounds: number('rounds'),
    duration: number('duration'),
    warmup: number('warmup'),
    connections: number('connections'),
    items: number('items'),
    largeItems: number('large-items'),
    soak: number('soak'),
    scenarios,
    redisUrl: env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    postgresUrl: env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    // Only a full run replaces the figures the docs quote; a partial or quick one is kept apart.
    out:
      (values.out as string | undefined) ??
      env.BENCH_OUT ??
      (only || quick ? PARTIAL_RESULTS : FULL_RESULTS),
  };
}
