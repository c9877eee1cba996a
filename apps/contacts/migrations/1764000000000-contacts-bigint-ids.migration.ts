import { alterIdColumns, type IdColumns } from '@cms/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Identifiers are positive integers up to 2^53 − 1 (extensions §1): every id column becomes bigint.
 * One ALTER TABLE per table rewrites it once; its indexes and primary key are rebuilt with it. The
 * count in workspace_usage is not an identifier and stays integer.
 */
export const CONTACTS_ID_COLUMNS: IdColumns = {
  contacts: ['id', 'workspace_id'],
  contact_channels: ['contact_id', 'workspace_id'],
  consent_changes: ['workspace_id', 'contact_id'],
  workspace_usage: ['workspace_id'],
  tags: ['id', 'workspace_id'],
  contact_tags: ['contact_id', 'tag_id', 'workspace_id'],
  events: ['id', 'workspace_id', 'contact_id'],
  inbound_receipts: ['workspace_id', 'integration_id', 'event_id', 'contact_id'],
};

export class ContactsBigintIds1764000000000 implements MigrationInterface {
  name = 'ContactsBigintIds1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    await alterIdColumns(runner, CONTACTS_ID_COLUMNS, 'bigint');
  }

  /** Fails, leaving everything as it was, when a stored id no longer fits in integer. */
  async down(runner: QueryRunner): Promise<void> {
    await alterIdColumns(runner, CONTACTS_ID_COLUMNS, 'integer');
  }
}
