import { MigrationInterface, QueryRunner } from 'typeorm';

// Generated: the foreign key gets the name the entity gives it, as on PostgreSQL.

export class WebhookDeliveriesForeignKeyName1795860554842 implements MigrationInterface {
  name = 'WebhookDeliveriesForeignKeyName1795860554842';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_webhook_deliveries_endpoint"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_webhook_deliveries" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "endpoint_id" integer NOT NULL, "change_id" bigint NOT NULL, "attempt" integer NOT NULL, "status" integer, "duration_ms" integer NOT NULL, "error" varchar(1024), "attempted_at" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_webhook_deliveries"("id", "endpoint_id", "change_id", "attempt", "status", "duration_ms", "error", "attempted_at") SELECT "id", "endpoint_id", "change_id", "attempt", "status", "duration_ms", "error", "attempted_at" FROM "webhook_deliveries"`,
    );
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(
      `ALTER TABLE "temporary_webhook_deliveries" RENAME TO "webhook_deliveries"`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_endpoint" ON "webhook_deliveries" ("endpoint_id", "id") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_webhook_deliveries_endpoint"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_webhook_deliveries" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "endpoint_id" integer NOT NULL, "change_id" bigint NOT NULL, "attempt" integer NOT NULL, "status" integer, "duration_ms" integer NOT NULL, "error" varchar(1024), "attempted_at" bigint NOT NULL, CONSTRAINT "FK_webhook_deliveries_endpoint" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_webhook_deliveries"("id", "endpoint_id", "change_id", "attempt", "status", "duration_ms", "error", "attempted_at") SELECT "id", "endpoint_id", "change_id", "attempt", "status", "duration_ms", "error", "attempted_at" FROM "webhook_deliveries"`,
    );
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(
      `ALTER TABLE "temporary_webhook_deliveries" RENAME TO "webhook_deliveries"`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_endpoint" ON "webhook_deliveries" ("endpoint_id", "id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_webhook_deliveries_endpoint"`);
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" RENAME TO "temporary_webhook_deliveries"`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "endpoint_id" integer NOT NULL, "change_id" bigint NOT NULL, "attempt" integer NOT NULL, "status" integer, "duration_ms" integer NOT NULL, "error" varchar(1024), "attempted_at" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `INSERT INTO "webhook_deliveries"("id", "endpoint_id", "change_id", "attempt", "status", "duration_ms", "error", "attempted_at") SELECT "id", "endpoint_id", "change_id", "attempt", "status", "duration_ms", "error", "attempted_at" FROM "temporary_webhook_deliveries"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_webhook_deliveries"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_endpoint" ON "webhook_deliveries" ("endpoint_id", "id") `,
    );
    await queryRunner.query(`DROP INDEX "IDX_webhook_deliveries_endpoint"`);
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" RENAME TO "temporary_webhook_deliveries"`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "endpoint_id" integer NOT NULL, "change_id" bigint NOT NULL, "attempt" integer NOT NULL, "status" integer, "duration_ms" integer NOT NULL, "error" varchar(1024), "attempted_at" bigint NOT NULL, CONSTRAINT "FK_0b882c26a9b91c26e6e86b4867c" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "webhook_deliveries"("id", "endpoint_id", "change_id", "attempt", "status", "duration_ms", "error", "attempted_at") SELECT "id", "endpoint_id", "change_id", "attempt", "status", "duration_ms", "error", "attempted_at" FROM "temporary_webhook_deliveries"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_webhook_deliveries"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_endpoint" ON "webhook_deliveries" ("endpoint_id", "id") `,
    );
  }
}
