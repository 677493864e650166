import { MigrationInterface, QueryRunner } from 'typeorm';
import { INVENTORY_WRITE_FUNCTION } from './1795400000000-InventoryHistory.js';
import { INVENTORY_WRITE_MANY_FUNCTION } from './1795600000000-InventoryWriteMany.js';

// The stock rule and the ETag live in TypeScript alone (src/inventory/writes/); the counter's
// triggers stay, as they hold for every writer.
export class InventoryWritesInApplication1795700000000 implements MigrationInterface {
  name = 'InventoryWritesInApplication1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION "inventory_write_many"`);
    await queryRunner.query(`DROP FUNCTION "inventory_write"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(INVENTORY_WRITE_FUNCTION);
    await queryRunner.query(INVENTORY_WRITE_MANY_FUNCTION);
  }
}
