import { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795260712490 implements MigrationInterface {
  name = 'Init1795260712490';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(100), "key_hash" varchar(64) NOT NULL, "key_prefix" varchar(20) NOT NULL, "plan" varchar(16) NOT NULL, "per_minute" integer, "per_day" integer, "environment" varchar(16) NOT NULL, "created_at" datetime NOT NULL DEFAULT (datetime('now')), "revoked_at" datetime)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_api_keys_key_hash" ON "api_keys" ("key_hash") `,
    );
    await queryRunner.query(
      `CREATE TABLE "pets" ("id" bigint PRIMARY KEY NOT NULL, "name" varchar(200), "status" varchar(16) NOT NULL, "quantity" integer NOT NULL, "updated_at" datetime NOT NULL DEFAULT (datetime('now')), CONSTRAINT "CHK_pets_status" CHECK ("status" IN ('available', 'pending', 'sold')), CONSTRAINT "CHK_pets_quantity" CHECK ("quantity" >= 0 AND "quantity" <= 2147483647))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "pets"`);
    await queryRunner.query(`DROP INDEX "UQ_api_keys_key_hash"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
  }
}
