import { MigrationInterface, QueryRunner } from 'typeorm';

// Striped over 64 rows by backend pid, summed when read, so concurrent writers do not queue on one
// lock; bumped BEFORE the statement, so before any pet row lock: no deadlock. Written by hand:
// TypeORM generates neither triggers nor tables without an entity.
export class InventoryVersion1795261585748 implements MigrationInterface {
  name = 'InventoryVersion1795261585748';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "inventory_version" ("slot" smallint NOT NULL, "version" bigint NOT NULL DEFAULT 0, CONSTRAINT "PK_inventory_version" PRIMARY KEY ("slot"))`,
    );
    await queryRunner.query(
      `INSERT INTO "inventory_version" ("slot") SELECT generate_series(0, 63)`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "bump_inventory_version"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         UPDATE "inventory_version" SET "version" = "version" + 1 WHERE "slot" = pg_backend_pid() % 64;
         RETURN NULL;
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version" BEFORE INSERT OR UPDATE OF "id", "quantity", "status" OR DELETE OR TRUNCATE ON "pets"
       FOR EACH STATEMENT EXECUTE FUNCTION "bump_inventory_version"()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TRG_pets_version" ON "pets"`);
    await queryRunner.query(`DROP FUNCTION "bump_inventory_version"()`);
    await queryRunner.query(`DROP TABLE "inventory_version"`);
  }
}
