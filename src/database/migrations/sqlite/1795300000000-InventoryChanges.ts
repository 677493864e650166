import { MigrationInterface, QueryRunner } from 'typeorm';

/** The change log keeps at least the latest this many versions; an older cache reads the whole table. */
export const INVENTORY_CHANGES_KEPT = 1024;
/** Every this many versions, the entries beyond INVENTORY_CHANGES_KEPT are deleted in one go. */
export const INVENTORY_CHANGES_PRUNED_EVERY = 256;

const BUMP = `UPDATE "inventory_version" SET "version" = "version" + 1 WHERE "id" = 1`;

/** The trigger body: bump the counter and log which pet that version changed. */
function logChange(pet: 'NEW' | 'OLD'): string {
  return `BEGIN
    ${BUMP};
    INSERT INTO "inventory_changes" ("version", "pet_id") SELECT "version", ${pet}."id" FROM "inventory_version" WHERE "id" = 1;
  END`;
}

/**
 * Which pet each version of the write counter changed (SQLite only), so that an instance whose
 * cached listing is a few writes behind reads those pets, not the whole table. SQLite commits
 * one writer at a time, so versions are in commit order and a reader at version V has seen
 * exactly the entries up to V. (PostgreSQL's striped counter gives no such order; there a
 * stale cache reads the table.) The triggers replace those of InventoryVersion: same counter,
 * plus one log row per version, the oldest pruned in batches. Written by hand: TypeORM
 * generates neither triggers nor tables without an entity, and a later generated migration
 * that rebuilds `pets` must create these triggers again (test/inventory-cache.e2e-spec.ts
 * fails if it does not).
 */
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
