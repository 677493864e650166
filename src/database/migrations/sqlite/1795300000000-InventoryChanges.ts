import { MigrationInterface, QueryRunner } from 'typeorm';

/** The change log keeps at least the latest this many versions; an older cache reads the whole table. */
export const INVENTORY_CHANGES_KEPT = 1024;
/** Every this many versions, the entries beyond INVENTORY_CHANGES_KEPT are deleted in one go. */
export const INVENTORY_CHANGES_PRUNED_EVERY = 256;

const BUMP = `UPDATE "inventory_version" SET "version" = "version" + 1 WHERE "id" = 1`;

function logChange(pet: 'NEW' | 'OLD'): string {
  return `BEGIN
    ${BUMP};
    INSERT INTO "inventory_changes" ("version", "pet_id") SELECT "version", ${pet}."id" FROM "inventory_version" WHERE "id" = 1;
  END`;
}

// Which pet each version changed, so a listing cache a few writes behind reads only those pets;
// SQLite commits one writer at a time, so versions follow commit order. Written by hand; a
// migration rebuilding `pets` must recreate these triggers (test/inventory-cache.e2e-spec.ts).
export class InventoryChanges1795300000000 implements MigrationInterface {
  name = 'InventoryChanges1795300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "inventory_changes" ("version" integer PRIMARY KEY NOT NULL, "pet_id" bigint NOT NULL)`,
    );
    for (const name of ['insert', 'update', 'delete'])
      await queryRunner.query(`DROP TRIGGER "TRG_pets_version_${name}"`);
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_insert" AFTER INSERT ON "pets" ${logChange('NEW')}`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_update" AFTER UPDATE OF "id", "quantity", "status" ON "pets" ${logChange('NEW')}`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_delete" AFTER DELETE ON "pets" ${logChange('OLD')}`,
    );
    // Pruning in batches, not one entry per write: most writes then touch no more of the log
    // than its last page.
    await queryRunner.query(
      `CREATE TRIGGER "TRG_inventory_changes_prune" AFTER INSERT ON "inventory_changes"
       WHEN NEW."version" % ${INVENTORY_CHANGES_PRUNED_EVERY} = 0
       BEGIN DELETE FROM "inventory_changes" WHERE "version" <= NEW."version" - ${INVENTORY_CHANGES_KEPT}; END`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TRG_inventory_changes_prune"`);
    for (const name of ['insert', 'update', 'delete'])
      await queryRunner.query(`DROP TRIGGER "TRG_pets_version_${name}"`);
    const bump = `BEGIN ${BUMP}; END`;
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_insert" AFTER INSERT ON "pets" ${bump}`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_update" AFTER UPDATE OF "id", "quantity", "status" ON "pets" ${bump}`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_delete" AFTER DELETE ON "pets" ${bump}`,
    );
    await queryRunner.query(`DROP TABLE "inventory_changes"`);
  }
}
