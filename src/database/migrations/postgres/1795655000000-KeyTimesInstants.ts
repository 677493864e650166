import { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = ['created_at', 'revoked_at', 'expires_at', 'rolled_at'];

/**
 * Key times become instants (timestamptz). A `timestamp` column took a Date as the writer's local
 * wall-clock time, so a CLI run under another TZ moved expiries by hours; the values kept are
 * read as UTC, the zone the server and the database default to.
 */
export class KeyTimesInstants1795655000000 implements MigrationInterface {
  name = 'KeyTimesInstants1795655000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const column of COLUMNS) {
      await queryRunner.query(
        `ALTER TABLE "api_keys" ALTER COLUMN "${column}" TYPE TIMESTAMP WITH TIME ZONE USING "${column}" AT TIME ZONE 'UTC'`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const column of COLUMNS) {
      await queryRunner.query(
        `ALTER TABLE "api_keys" ALTER COLUMN "${column}" TYPE TIMESTAMP USING "${column}" AT TIME ZONE 'UTC'`,
      );
    }
  }
}
