import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { INTEGRATION_POSTGRES_URL } from './services.js';

/** Every database of one integration run starts with this, so the run can drop what it left. */
export const RUN_DATABASE_PREFIX = 'petstore_it_';

export function runId(): string {
  return randomBytes(4).toString('hex');
}

export function databaseUrl(name: string): string {
  const url = new URL(INTEGRATION_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function quoteIdent(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Refusing an unusual database name: ${name}`);
  return `"${name}"`;
}

/** A connection of the test's own; the caller ends it. */
export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Runs statements with a short-lived connection, on the maintenance database unless told. */
export async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await connect(url);
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function createDatabase(name: string, template?: string): Promise<string> {
  await admin(INTEGRATION_POSTGRES_URL, async (client) => {
    const from = template === undefined ? '' : ` TEMPLATE ${quoteIdent(template)}`;
    // Copies from one template may run side by side, but never while anyone is connected to it.
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${quoteIdent(name)}${from}`);
        return;
      } catch (err) {
        const busy = (err as { code?: string }).code === '55006';
        if (!busy || attempt >= 20) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  });
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  await admin(INTEGRATION_POSTGRES_URL, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
  );
}

/** Drops every database whose name starts with `prefix` (what one run created). */
export async function dropDatabases(prefix: string): Promise<string[]> {
  const names = await admin(INTEGRATION_POSTGRES_URL, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname`,
      [prefix],
    );
    return rows.map((row) => row.datname);
  });
  // The template goes last: copies being made from it would otherwise fail.
  names.sort((a, b) => Number(a.endsWith('_template')) - Number(b.endsWith('_template')));
  for (const name of names) await dropDatabase(name);
  return names;
}
