import { MigrationInterface, QueryRunner } from 'typeorm';

// Instants are Unix milliseconds (integer): compared in SQL against the same clock that wrote them.
export class Webhooks1795700000000 implements MigrationInterface {
  name = 'Webhooks1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "url" varchar(2048) NOT NULL,
        "description" varchar(255), "secret" varchar(64) NOT NULL,
        "previous_secret" varchar(64), "previous_secret_until" bigint,
        "cursor" bigint NOT NULL, "generation" integer NOT NULL DEFAULT 0, "failures" integer NOT NULL DEFAULT 0, "next_attempt_at" bigint,
        "disabled_at" bigint, "disabled_reason" varchar(255),
        "lease_owner" varchar(64), "lease_until" bigint, "created_at" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
        "endpoint_id" integer NOT NULL REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE,
        "change_id" bigint NOT NULL, "attempt" integer NOT NULL, "status" integer,
        "duration_ms" integer NOT NULL, "error" varchar(1024), "attempted_at" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_deliveries_endpoint" ON "webhook_deliveries" ("endpoint_id", "id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
  }
}
