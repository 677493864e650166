import { MigrationInterface, QueryRunner } from 'typeorm';

// Instants are Unix milliseconds (bigint). A hold keeps units while `status` is `active` and
// `expires_at` is later than now: the pet's active holds are summed under its row's write lock.
export class Holds1795900000000 implements MigrationInterface {
  name = 'Holds1795900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "holds" ("id" character varying(36) NOT NULL, "pet_id" bigint NOT NULL,
        "quantity" integer NOT NULL, "status" character varying(16) NOT NULL,
        "reference" character varying(255), "created_at" bigint NOT NULL,
        "expires_at" bigint NOT NULL, "ended_at" bigint,
        CONSTRAINT "PK_holds" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_holds_pet" ON "holds" ("pet_id", "status", "expires_at")`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_holds_status" ON "holds" ("status", "expires_at")`);
    await queryRunner.query(`CREATE INDEX "IDX_holds_ended" ON "holds" ("ended_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "holds"`);
  }
}
