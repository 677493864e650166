import { MigrationInterface, QueryRunner } from 'typeorm';

// Keeps deployments with different databases apart in what they share (one Redis). The id is
// written by the first process that needs it, so a database copied from a template gets its own.
export class Deployment1795410000000 implements MigrationInterface {
  name = 'Deployment1795410000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "deployment" ("singleton" integer PRIMARY KEY NOT NULL CHECK ("singleton" = 1), "id" varchar(32) NOT NULL)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "deployment"`);
  }
}
