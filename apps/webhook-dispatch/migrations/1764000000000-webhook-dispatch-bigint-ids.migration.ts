import { alterIdColumns, type IdColumns } from '@cms/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Workspace ids are positive integers up to 2^53 − 1 (extensions §1) and are stored as bigint.
 * Endpoints and deliveries are named by UUIDs; attempt numbers, statuses, durations and failure
 * counts are counters and stay integer.
 */
export const WEBHOOK_DISPATCH_ID_COLUMNS: IdColumns = {
  webhook_endpoints: ['workspace_id'],
  webhook_deliveries: ['workspace_id'],
};

export class WebhookDispatchBigintIds1764000000000 implements MigrationInterface {
  name = 'WebhookDispatchBigintIds1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    await alterIdColumns(runner, WEBHOOK_DISPATCH_ID_COLUMNS, 'bigint');
  }

  /** Fails, leaving everything as it was, when a stored id no longer fits in integer. */
  async down(runner: QueryRunner): Promise<void> {
    await alterIdColumns(runner, WEBHOOK_DISPATCH_ID_COLUMNS, 'integer');
  }
}
