import { MigrationInterface, QueryRunner } from 'typeorm';

export class Orders1795261339928 implements MigrationInterface {
  name = 'Orders1795261339928';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "orders" ("id" bigint NOT NULL, "pet_id" bigint NOT NULL, "quantity" integer NOT NULL, "status" character varying(16) NOT NULL, "ship_date" TIMESTAMP, "complete" boolean NOT NULL DEFAULT false, CONSTRAINT "CHK_orders_status" CHECK ("status" IN ('placed', 'approved', 'delivered')), CONSTRAINT "CHK_orders_quantity" CHECK ("quantity" >= 1 AND "quantity" <= 2147483647), CONSTRAINT "PK_710e2d4957aa5878dfe94e4ac2f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_orders_pet_id" ON "orders"  ("pet_id") `);
    await queryRunner.query(
      `ALTER TABLE "orders" ADD CONSTRAINT "FK_orders_pet_id" FOREIGN KEY ("pet_id") REFERENCES "pets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "orders" DROP CONSTRAINT "FK_orders_pet_id"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_orders_pet_id"`);
    await queryRunner.query(`DROP TABLE "orders"`);
  }
}
