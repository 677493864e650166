import { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = `"id", "name", "key_hash", "key_prefix", "plan", "per_minute", "per_day", "environment", "created_at", "revoked_at"`;
const TABLE_BEFORE = `("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(100), "key_hash" varchar(64) NOT NULL, "key_prefix" varchar(20) NOT NULL, "plan" varchar(16) NOT NULL, "per_minute" integer, "per_day" integer, "environment" varchar(16) NOT NULL, "created_at" datetime NOT NULL DEFAULT (datetime('now')), "revoked_at" datetime)`;
const TABLE_AFTER = `("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(100), "key_hash" varchar(64) NOT NULL, "key_prefix" varchar(20) NOT NULL, "plan" varchar(16) NOT NULL, "per_minute" integer, "per_day" integer, "environment" varchar(16) NOT NULL, "created_at" datetime NOT NULL DEFAULT (datetime('now')), "revoked_at" datetime, "scope" varchar(8) NOT NULL DEFAULT ('write'), "expires_at" datetime, "replaced_by_id" integer, "rolled_at" datetime, CONSTRAINT "CHK_api_keys_scope" CHECK ("scope" IN ('read', 'write')), CONSTRAINT "FK_api_keys_replaced_by_id" FOREIGN KEY ("replaced_by_id") REFERENCES "api_keys" ("id") ON DELETE SET NULL ON UPDATE NO ACTION)`;

// Rebuilt once, straight to TypeORM's schema with the same constraint names, so
// `migration:generate` finds nothing left. TypeORM turns foreign keys off while migrations run.
export class KeyScopesExpiryRotation1795500333081 implements MigrationInterface {
  name = 'KeyScopesExpiryRotation1795500333081';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await this.rebuild(queryRunner, TABLE_AFTER);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await this.rebuild(queryRunner, TABLE_BEFORE);
  }

  private async rebuild(queryRunner: QueryRunner, table: string): Promise<void> {
    await queryRunner.query(`DROP INDEX "UQ_api_keys_key_hash"`);
    await queryRunner.query(`CREATE TABLE "temporary_api_keys" ${table}`);
    await queryRunner.query(
      `INSERT INTO "temporary_api_keys"(${COLUMNS}) SELECT ${COLUMNS} FROM "api_keys"`,
    );
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`ALTER TABLE "temporary_api_keys" RENAME TO "api_keys"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_api_keys_key_hash" ON "api_keys" ("key_hash") `,
    );
  }
}
