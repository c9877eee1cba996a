import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The snapshots taken of audiences for notification sends, so that none is taken twice. */
export class SegmentsAudienceSnapshots1795800000400 implements MigrationInterface {
  name = 'SegmentsAudienceSnapshots1795800000400';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE audience_snapshots (
        workspace_id bigint NOT NULL,
        snapshot_id bigint NOT NULL,
        audience_id bigint NOT NULL,
        at timestamptz NOT NULL,
        CONSTRAINT "PK_audience_snapshots" PRIMARY KEY (workspace_id, snapshot_id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE audience_snapshots');
  }
}
