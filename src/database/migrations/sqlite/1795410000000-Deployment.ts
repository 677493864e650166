import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row naming this deployment, so that deployments with different databases keep apart
 * whatever they share (rate-limit state in one Redis). The id is written by the first process
 * that needs it (DeploymentId), not here: a database copied from a migrated template before
 * that gets an id of its own.
 */
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
