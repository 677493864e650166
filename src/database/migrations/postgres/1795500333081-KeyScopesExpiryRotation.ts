import { MigrationInterface, QueryRunner } from 'typeorm';

/** Key scopes, expiry and rotation: existing keys become `write` keys that never expire. */
export class KeyScopesExpiryRotation1795500333081 implements MigrationInterface {
  name = 'KeyScopesExpiryRotation1795500333081';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD "scope" character varying(8) NOT NULL DEFAULT 'write'`,
    );
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "expires_at" TIMESTAMP`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "replaced_by_id" integer`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "rolled_at" TIMESTAMP`);
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "CHK_api_keys_scope" CHECK ("scope" IN ('read', 'write'))`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_api_keys_replaced_by_id" FOREIGN KEY ("replaced_by_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_api_keys_replaced_by_id"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "CHK_api_keys_scope"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "rolled_at"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "replaced_by_id"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "expires_at"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "scope"`);
  }
}
