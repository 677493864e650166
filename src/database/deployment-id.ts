import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';

// The same for every process on one database, different for any other. Concurrent first askers
// agree: only one insert can take the single row.
export async function deploymentId(dataSource: DataSource): Promise<string> {
  const candidate = randomBytes(8).toString('hex');
  const postgres = dataSource.options.type === 'postgres';
  await dataSource.query(
    `INSERT INTO "deployment" ("singleton", "id") VALUES (1, ${postgres ? '$1' : '?'}) ON CONFLICT DO NOTHING`,
    [candidate],
  );
  const rows = (await dataSource.query(`SELECT "id" FROM "deployment" WHERE "singleton" = 1`)) as {
    id: string;
  }[];
  return rows[0].id;
}
