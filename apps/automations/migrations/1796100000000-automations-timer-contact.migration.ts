import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether a run timer fires with the contact: only the timers of a version whose runs read it
 * (readsRunContact). Timers set before this column existed keep firing with it.
 */
export class AutomationsTimerContact1796100000000 implements MigrationInterface {
  name = 'AutomationsTimerContact1796100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE run_timers ADD COLUMN reads_contact boolean NOT NULL DEFAULT true');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE run_timers DROP COLUMN reads_contact');
  }
}
