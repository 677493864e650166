import { MigrationInterface, QueryRunner } from 'typeorm';

const BUMP = `BEGIN UPDATE "inventory_version" SET "version" = "version" + 1 WHERE "id" = 1; END`;
const CHANGED = `OLD."id" IS NOT NEW."id" OR OLD."quantity" IS NOT NEW."quantity" OR OLD."status" IS NOT NEW."status"`;

// A change's id is the write counter's value after it; SQLite commits one writer at a time, so ids
// follow commit order. Written by hand (TypeORM generates no triggers); a migration rebuilding
// `pets` must recreate these triggers.
export class InventoryHistory1795400000000 implements MigrationInterface {
  name = 'InventoryHistory1795400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TRG_inventory_changes_prune"`);
    for (const name of ['insert', 'update', 'delete'])
      await queryRunner.query(`DROP TRIGGER "TRG_pets_version_${name}"`);
    await queryRunner.query(`DROP TABLE "inventory_changes"`);
    await queryRunner.query(
      `CREATE TABLE "inventory_changes" ("id" integer PRIMARY KEY NOT NULL, "pet_id" bigint NOT NULL,
        "previous_quantity" integer, "quantity" integer NOT NULL, "previous_status" varchar(16), "status" varchar(16) NOT NULL,
        "reason" varchar(16), "reference" varchar(255), "source" varchar(8) NOT NULL, "key_id" integer,
        "request_id" varchar(128), "changed_at" varchar(24) NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_inventory_changes_pet" ON "inventory_changes" ("pet_id", "id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "inventory_changes_pruned" ("id" integer PRIMARY KEY NOT NULL CHECK ("id" = 1), "through" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `INSERT INTO "inventory_changes_pruned" ("id", "through") VALUES (1, 0)`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_insert" AFTER INSERT ON "pets" ${BUMP}`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_update" AFTER UPDATE OF "id", "quantity", "status" ON "pets" WHEN ${CHANGED} ${BUMP}`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_delete" AFTER DELETE ON "pets" ${BUMP}`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['insert', 'update', 'delete'])
      await queryRunner.query(`DROP TRIGGER "TRG_pets_version_${name}"`);
    await queryRunner.query(`DROP TABLE "inventory_changes_pruned"`);
    await queryRunner.query(`DROP TABLE "inventory_changes"`);
    await queryRunner.query(
      `CREATE TABLE "inventory_changes" ("version" integer PRIMARY KEY NOT NULL, "pet_id" bigint NOT NULL)`,
    );
    const log = (pet: string) =>
      `BEGIN UPDATE "inventory_version" SET "version" = "version" + 1 WHERE "id" = 1;
        INSERT INTO "inventory_changes" ("version", "pet_id") SELECT "version", ${pet}."id" FROM "inventory_version" WHERE "id" = 1; END`;
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_insert" AFTER INSERT ON "pets" ${log('NEW')}`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_update" AFTER UPDATE OF "id", "quantity", "status" ON "pets" ${log('NEW')}`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_delete" AFTER DELETE ON "pets" ${log('OLD')}`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_inventory_changes_prune" AFTER INSERT ON "inventory_changes"
       WHEN NEW."version" % 256 = 0
       BEGIN DELETE FROM "inventory_changes" WHERE "version" <= NEW."version" - 1024; END`,
    );
  }
}
