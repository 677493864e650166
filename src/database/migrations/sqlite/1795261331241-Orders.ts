import { MigrationInterface, QueryRunner } from 'typeorm';

export class Orders1795261331241 implements MigrationInterface {
  name = 'Orders1795261331241';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "orders" ("id" bigint PRIMARY KEY NOT NULL, "pet_id" bigint NOT NULL, "quantity" integer NOT NULL, "status" varchar(16) NOT NULL, "ship_date" datetime, "complete" boolean NOT NULL DEFAULT (0), CONSTRAINT "CHK_orders_status" CHECK ("status" IN ('placed', 'approved', 'delivered')), CONSTRAINT "CHK_orders_quantity" CHECK ("quantity" >= 1 AND "quantity" <= 2147483647))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_orders_pet_id" ON "orders" ("pet_id") `);
    await queryRunner.query(`DROP INDEX "IDX_orders_pet_id"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_orders" ("id" bigint PRIMARY KEY NOT NULL, "pet_id" bigint NOT NULL, "quantity" integer NOT NULL, "status" varchar(16) NOT NULL, "ship_date" datetime, "complete" boolean NOT NULL DEFAULT (0), CONSTRAINT "CHK_orders_status" CHECK ("status" IN ('placed', 'approved', 'delivered')), CONSTRAINT "CHK_orders_quantity" CHECK ("quantity" >= 1 AND "quantity" <= 2147483647), CONSTRAINT "FK_orders_pet_id" FOREIGN KEY ("pet_id") REFERENCES "pets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_orders"("id", "pet_id", "quantity", "status", "ship_date", "complete") SELECT "id", "pet_id", "quantity", "status", "ship_date", "complete" FROM "orders"`,
    );
    await queryRunner.query(`DROP TABLE "orders"`);
    await queryRunner.query(`ALTER TABLE "temporary_orders" RENAME TO "orders"`);
    await queryRunner.query(`CREATE INDEX "IDX_orders_pet_id" ON "orders" ("pet_id") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_orders_pet_id"`);
    await queryRunner.query(`ALTER TABLE "orders" RENAME TO "temporary_orders"`);
    await queryRunner.query(
      `CREATE TABLE "orders" ("id" bigint PRIMARY KEY NOT NULL, "pet_id" bigint NOT NULL, "quantity" integer NOT NULL, "status" varchar(16) NOT NULL, "ship_date" datetime, "complete" boolean NOT NULL DEFAULT (0), CONSTRAINT "CHK_orders_status" CHECK ("status" IN ('placed', 'approved', 'delivered')), CONSTRAINT "CHK_orders_quantity" CHECK ("quantity" >= 1 AND "quantity" <= 2147483647))`,
    );
    await queryRunner.query(
      `INSERT INTO "orders"("id", "pet_id", "quantity", "status", "ship_date", "complete") SELECT "id", "pet_id", "quantity", "status", "ship_date", "complete" FROM "temporary_orders"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_orders"`);
    await queryRunner.query(`CREATE INDEX "IDX_orders_pet_id" ON "orders" ("pet_id") `);
    await queryRunner.query(`DROP INDEX "IDX_orders_pet_id"`);
    await queryRunner.query(`DROP TABLE "orders"`);
  }
}
