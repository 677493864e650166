import { MigrationInterface, QueryRunner } from 'typeorm';

// One round trip, so the counter's lock is held briefly; the pet row is locked first. An import
// takes the counter then pet rows, so PostgreSQL may cancel one as a deadlock: InventoryRepository
// retries. The rules mirror src/inventory/writes/; integration tests check that they agree.
export const INVENTORY_WRITE_FUNCTION = `CREATE FUNCTION "inventory_write"(p_pet_id bigint, p_quantity integer, p_if_match text,
    p_reason varchar, p_reference varchar, p_key_id integer, p_request_id varchar, p_changed_at timestamptz)
  RETURNS TABLE(o_outcome text, o_pet_id text, o_quantity integer, o_status varchar, o_version text)
  LANGUAGE plpgsql AS $$
  DECLARE
    v bigint;
    cur_q integer;
    cur_s varchar;
    new_s varchar;
    tag text;
  BEGIN
    SELECT p."quantity", p."status" INTO cur_q, cur_s FROM "pets" p WHERE p."id" = p_pet_id FOR UPDATE;
    IF NOT FOUND THEN
      RETURN QUERY SELECT 'not_found'::text, NULL::text, NULL::integer, NULL::varchar, NULL::text;
      RETURN;
    END IF;
    IF p_if_match IS NOT NULL THEN
      tag := '"' || left(translate(encode(sha256(convert_to(p_pet_id::text || ':' || cur_q::text || ':' || cur_s, 'UTF8')), 'base64'), '+/', '-_'), 22) || '"';
      IF NOT (tag = ANY (ARRAY(SELECT json_array_elements_text(p_if_match::json)))) THEN
        RETURN QUERY SELECT 'precondition_failed'::text, p_pet_id::text, cur_q, cur_s, NULL::text;
        RETURN;
      END IF;
    END IF;
    new_s := CASE WHEN p_quantity = 0 THEN 'sold' WHEN cur_s = 'sold' THEN 'available' ELSE cur_s END;
    IF new_s = cur_s AND p_quantity = cur_q THEN
      RETURN QUERY SELECT 'unchanged'::text, p_pet_id::text, cur_q, cur_s, NULL::text;
      RETURN;
    END IF;
    SELECT iv."version" INTO v FROM "inventory_version" iv WHERE iv."slot" = 0 FOR UPDATE;
    UPDATE "pets" SET "quantity" = p_quantity, "status" = new_s, "updated_at" = now() WHERE "id" = p_pet_id;
    INSERT INTO "inventory_changes" ("id", "pet_id", "previous_quantity", "quantity", "previous_status", "status",
        "reason", "reference", "source", "key_id", "request_id", "changed_at")
      VALUES (v + 1, p_pet_id, cur_q, p_quantity, cur_s, new_s, p_reason, p_reference, 'api', p_key_id, p_request_id, p_changed_at);
    RETURN QUERY SELECT 'written'::text, p_pet_id::text, p_quantity, new_s, (v + 1)::text;
  END $$`;

// Every statement writing `pets` locks the one-row counter first (BEFORE STATEMENT: no deadlock)
// and holds it to commit, so change ids follow commit order and a reader at N has seen all below N.
// Written by hand: TypeORM generates neither triggers nor tables without an entity.
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
    await queryRunner.query(INVENTORY_WRITE_FUNCTION);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION "inventory_write"`);
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
