import { MigrationInterface, QueryRunner } from 'typeorm';

// One row per (API key, Idempotency-Key), inserted in the transaction of the changes it answers:
// the primary key makes a concurrent duplicate's transaction fail instead of applying twice.
export class IdempotencyKeys1795800000000 implements MigrationInterface {
  name = 'IdempotencyKeys1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("key_id" integer NOT NULL, "idempotency_key" varchar(255) NOT NULL,
        "fingerprint" varchar(64) NOT NULL, "status" integer NOT NULL, "etag" varchar(64),
        "body" text NOT NULL, "created_at" varchar NOT NULL,
        PRIMARY KEY ("key_id", "idempotency_key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_idempotency_keys_created_at" ON "idempotency_keys" ("created_at")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
