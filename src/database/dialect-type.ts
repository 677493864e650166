import { type ColumnType, DataSource } from 'typeorm';

export type Dialect = 'postgres' | 'sqlite';

/** A column's exact type on one dialect: what that dialect's migrations create. */
export interface ExactType {
  type: ColumnType;
  length?: number;
}

const exactTypes = new Map<unknown, Map<string, Partial<Record<Dialect, ExactType>>>>();

/**
 * The column's type on the dialects where it is not the one its `@Column` names. TypeORM takes one
 * type per column, valid on every driver, and none is `timestamptz` on PostgreSQL but `datetime`
 * on SQLite, or `bigint` on PostgreSQL but SQLite's rowid (`integer PRIMARY KEY`).
 */
export function DialectType(types: Partial<Record<Dialect, ColumnType | ExactType>>) {
  return (prototype: object, property: string): void => {
    const entity = prototype.constructor;
    const columns =
      exactTypes.get(entity) ?? new Map<string, Partial<Record<Dialect, ExactType>>>();
    const exact: Partial<Record<Dialect, ExactType>> = {};
    for (const [dialect, type] of Object.entries(types) as [Dialect, ColumnType | ExactType][])
      exact[dialect] = typeof type === 'object' && 'type' in type ? type : { type };
    columns.set(property, exact);
    exactTypes.set(entity, columns);
  };
}

/**
 * The DataSource of the app, the CLI (`migration:generate` included) and the tests: its entity
 * metadata carries the dialect's exact types, so the schema it describes is the one the
 * migrations create.
 */
export class AppDataSource extends DataSource {
  override async initialize(): Promise<this> {
    await super.initialize();
    const dialect: Dialect = this.options.type === 'postgres' ? 'postgres' : 'sqlite';
    for (const entity of this.entityMetadatas) {
      for (const column of entity.columns) {
        const exact = exactTypes.get(column.target)?.get(column.propertyName)?.[dialect];
        if (exact === undefined) continue;
        column.type = exact.type;
        column.length = exact.length === undefined ? '' : String(exact.length);
        const supported: readonly unknown[] = this.driver.supportedDataTypes;
        if (!supported.includes(this.driver.normalizeType(column))) {
          await this.destroy();
          throw new Error(
            `${entity.name}.${column.propertyName}: no ${dialect} type ${String(exact.type)}`,
          );
        }
      }
    }
    return this;
  }
}
