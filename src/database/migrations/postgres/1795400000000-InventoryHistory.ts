import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The stock history (InventoryChange) and a write counter that orders it by commit. The
 * counter becomes one row: every statement that writes `pets` locks it first (BEFORE STATEMENT,
 * so before any pet row: no deadlock), each row that really changes bumps it, and the lock is
 * held to commit. A change's id is the counter's value after it, so ids are given in commit
 * order: a transaction can take the next value only once the one before it has committed, and a
 * reader that sees id N sees every id below N. Writers of `pets` queue on this row; that is the
 * price of a feed that never skips a change. Written by hand: TypeORM generates neither
 * triggers nor tables without an entity.
 */
export class InventoryHistory1795400000000 implements MigrationInterface {
  name = 'InventoryHistory1795400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TRG_pets_version" ON "pets"`);
    await queryRunner.query(`DROP FUNCTION "bump_inventory_version"()`);
    await queryRunner.query(
      `UPDATE "inventory_version" SET "version" = (SELECT SUM("version") FROM "inventory_version") WHERE "slot" = 0`,
    );
    await queryRunner.query(`DELETE FROM "inventory_version" WHERE "slot" <> 0`);
    await queryRunner.query(
      `CREATE FUNCTION "lock_inventory_version"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         PERFORM 1 FROM "inventory_version" WHERE "slot" = 0 FOR UPDATE;
         RETURN NULL;
       END $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "bump_inventory_version"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         UPDATE "inventory_version" SET "version" = "version" + 1 WHERE "slot" = 0;
         RETURN NULL;
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_lock" BEFORE INSERT OR UPDATE OF "id", "quantity", "status" OR DELETE OR TRUNCATE ON "pets"
       FOR EACH STATEMENT EXECUTE FUNCTION "lock_inventory_version"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_insert" AFTER INSERT OR DELETE ON "pets"
       FOR EACH ROW EXECUTE FUNCTION "bump_inventory_version"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_update" AFTER UPDATE OF "id", "quantity", "status" ON "pets"
       FOR EACH ROW WHEN (OLD."id" IS DISTINCT FROM NEW."id" OR OLD."quantity" IS DISTINCT FROM NEW."quantity" OR OLD."status" IS DISTINCT FROM NEW."status")
       EXECUTE FUNCTION "bump_inventory_version"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "TRG_pets_version_truncate" AFTER TRUNCATE ON "pets"
       FOR EACH STATEMENT EXECUTE FUNCTION "bump_inventory_version"()`,
    );
    await queryRunner.query(
      `CREATE TABLE "inventory_changes" ("id" bigint NOT NULL, "pet_id" bigint NOT NULL,
        "previous_quantity" integer, "quantity" integer NOT NULL, "previous_status" character varying(16), "status" character varying(16) NOT NULL,
        "reason" character varying(16), "reference" character varying(255), "source" character varying(8) NOT NULL, "key_id" integer,
        "request_id" character varying(128), "changed_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_inventory_changes" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_inventory_changes_pet" ON "inventory_changes" ("pet_id", "id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "inventory_changes_pruned" ("id" smallint NOT NULL CHECK ("id" = 1), "through" bigint NOT NULL, CONSTRAINT "PK_inventory_changes_pruned" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `INSERT INTO "inventory_changes_pruned" ("id", "through") VALUES (1, 0)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "inventory_changes_pruned"`);
    await queryRunner.query(`DROP TABLE "inventory_changes"`);
    for (const name of ['lock', 'insert', 'update', 'truncate'])
      await queryRunner.query(`DROP TRIGGER "TRG_pets_version_${name}" ON "pets"`);
    await queryRunner.query(`DROP FUNCTION "bump_inventory_version"()`);
    await queryRunner.query(`DROP FUNCTION "lock_inventory_version"()`);
    await queryRunner.query(
      `INSERT INTO "inventory_version" ("slot") SELECT generate_series(1, 63)`,
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
}
