import { MigrationInterface, QueryRunner } from 'typeorm';

// Written by hand: TypeORM generates neither triggers nor tables without an entity. SQLite drops a
// table's triggers with it: a migration rebuilding `pets` must recreate them (inventory-cache e2e).
export class InventoryVersion1795261585748 implements MigrationInterface {
  name = 'InventoryVersion1795261585748';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "inventory_version" ("id" integer PRIMARY KEY NOT NULL CHECK ("id" = 1), "version" integer NOT NULL)`,
    );
    await queryRunner.query(`INSERT INTO "inventory_version" ("id", "version") VALUES (1, 0)`);
    const bump = `BEGIN UPDATE "inventory_version" SET "version" = "version" + 1 WHERE "id" = 1; END`;
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_insert" AFTER INSERT ON "pets" ${bump}`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_update" AFTER UPDATE OF "id", "quantity", "status" ON "pets" ${bump}`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_delete" AFTER DELETE ON "pets" ${bump}`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TRG_pets_version_delete"`);
    await queryRunner.query(`DROP TRIGGER "TRG_pets_version_update"`);
    await queryRunner.query(`DROP TRIGGER "TRG_pets_version_insert"`);
    await queryRunner.query(`DROP TABLE "inventory_version"`);
  }
}
