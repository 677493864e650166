import { MigrationInterface, QueryRunner } from 'typeorm';

// A page of a pet's active holds reads its rows in list order and stops at the page's end. The
// index replaces (pet_id, status, expires_at): the units held sum the same rows, and a hold then
// writes no more index entries than before.
export class HoldsPages1795950000000 implements MigrationInterface {
  name = 'HoldsPages1795950000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_holds_pet"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_holds_pet_created" ON "holds" ("pet_id", "status", "created_at", "id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_holds_pet_created"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_holds_pet" ON "holds" ("pet_id", "status", "expires_at")`,
    );
  }
}
