import type { DataSource } from 'typeorm';

/* The part of better-sqlite3's API this module uses (the package ships no type declarations). */

export interface SqliteStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
  iterate(...params: unknown[]): IterableIterator<unknown>;
  pluck(toggle?: boolean): SqliteStatement;
}

export interface SqliteDatabase {
  readonly inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

export type SqliteConstructor = new (
  path: string,
  options: { readonly?: boolean; fileMustExist?: boolean; timeout?: number },
) => SqliteDatabase;

export interface SqliteHandle {
  connection: SqliteDatabase;
  Database: SqliteConstructor;
  /** Undefined in memory, where no other connection can see the data. */
  file: string | undefined;
  busyTimeoutMs: number;
}

export function sqliteHandle(dataSource: DataSource): SqliteHandle | undefined {
  const options = dataSource.options;
  if (options.type !== 'better-sqlite3') return undefined;
  const driver = dataSource.driver as unknown as {
    databaseConnection: SqliteDatabase;
    sqlite: SqliteConstructor;
  };
  return {
    connection: driver.databaseConnection,
    Database: driver.sqlite,
    file: options.database === ':memory:' ? undefined : options.database,
    busyTimeoutMs: options.timeout ?? 5000,
  };
}
