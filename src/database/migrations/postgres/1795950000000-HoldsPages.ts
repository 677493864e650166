import { MigrationInterface, QueryRunner } from 'typeorm';

// A page of a pet's active holds reads its rows in list order and stops at the page's end.
export class HoldsPages1795950000000 implements MigrationInterface {
  name = 'HoldsPages1795950000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_holds_pet_created" ON "holds" ("pet_id", "status", "created_at", "id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_holds_pet_created"`);
  }
}
