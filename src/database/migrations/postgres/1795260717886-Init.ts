import { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795260717886 implements MigrationInterface {
  name = 'Init1795260717886';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" SERIAL NOT NULL, "name" character varying(100), "key_hash" character varying(64) NOT NULL, "key_prefix" character varying(20) NOT NULL, "plan" character varying(16) NOT NULL, "per_minute" integer, "per_day" integer, "environment" character varying(16) NOT NULL, "created_at" TIMESTAMP NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_api_keys_key_hash" ON "api_keys"  ("key_hash") `,
    );
    await queryRunner.query(
      `CREATE TABLE "pets" ("id" bigint NOT NULL, "name" character varying(200), "status" character varying(16) NOT NULL, "quantity" integer NOT NULL, "updated_at" TIMESTAMP NOT NULL DEFAULT now(), CONSTRAINT "CHK_pets_status" CHECK ("status" IN ('available', 'pending', 'sold')), CONSTRAINT "CHK_pets_quantity" CHECK ("quantity" >= 0 AND "quantity" <= 2147483647), CONSTRAINT "PK_d01e9e7b4ada753c826720bee8b" PRIMARY KEY ("id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "pets"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_api_keys_key_hash"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
  }
}
