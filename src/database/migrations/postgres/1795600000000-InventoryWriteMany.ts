import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Several stock updates in one statement, and so in one transaction with one commit: each is
 * one call of `inventory_write` (migration InventoryHistory), in the order given, so each gets
 * its own version of the counter, in commit order as before. The pets are locked first, in id
 * order: `inventory_write` locks a pet and then the counter, and a batch taking a second pet
 * while holding the counter could otherwise deadlock with a writer holding that pet and waiting
 * for the counter.
 */
export const INVENTORY_WRITE_MANY_FUNCTION = `CREATE FUNCTION "inventory_write_many"(p_pet_ids bigint[], p_quantities integer[],
    p_if_matches text[], p_reasons varchar[], p_references varchar[], p_key_ids integer[], p_request_ids varchar[],
    p_changed_at timestamptz[])
  RETURNS TABLE(o_n integer, o_outcome text, o_pet_id text, o_quantity integer, o_status varchar, o_version text)
  LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM 1 FROM "pets" p WHERE p."id" = ANY (p_pet_ids) ORDER BY p."id" FOR UPDATE;
    FOR i IN 1 .. coalesce(array_length(p_pet_ids, 1), 0) LOOP
      RETURN QUERY SELECT i, w.* FROM inventory_write(p_pet_ids[i], p_quantities[i], p_if_matches[i], p_reasons[i],
        p_references[i], p_key_ids[i], p_request_ids[i], p_changed_at[i]) w;
    END LOOP;
  END $$`;

export class InventoryWriteMany1795600000000 implements MigrationInterface {
  name = 'InventoryWriteMany1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(INVENTORY_WRITE_MANY_FUNCTION);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION "inventory_write_many"`);
  }
}
