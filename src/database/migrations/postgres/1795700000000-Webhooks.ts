import { MigrationInterface, QueryRunner } from 'typeorm';

// Instants are Unix milliseconds (bigint): compared in SQL against the same clock that wrote them.
export class Webhooks1795700000000 implements MigrationInterface {
  name = 'Webhooks1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" ("id" SERIAL NOT NULL, "url" character varying(2048) NOT NULL,
        "description" character varying(255), "secret" character varying(64) NOT NULL,
        "previous_secret" character varying(64), "previous_secret_until" bigint,
        "cursor" bigint NOT NULL, "generation" integer NOT NULL DEFAULT 0, "failures" integer NOT NULL DEFAULT 0, "next_attempt_at" bigint,
        "disabled_at" bigint, "disabled_reason" character varying(255),
        "lease_owner" character varying(64), "lease_until" bigint, "created_at" bigint NOT NULL,
        CONSTRAINT "PK_webhook_endpoints" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" BIGSERIAL NOT NULL, "endpoint_id" integer NOT NULL,
        "change_id" bigint NOT NULL, "attempt" integer NOT NULL, "status" integer,
        "duration_ms" integer NOT NULL, "error" character varying(1024), "attempted_at" bigint NOT NULL,
        CONSTRAINT "PK_webhook_deliveries" PRIMARY KEY ("id"),
        CONSTRAINT "FK_webhook_deliveries_endpoint" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE)`,
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
