import { alterIdColumns, type IdColumns } from '@cms/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

import { ID_BLOCK_SIZE, ID_KINDS } from '../src/ids/id-kinds';

/**
 * Identifiers are positive integers up to 2^53 − 1 (extensions §1): every id column becomes bigint
 * (one ALTER TABLE per table rewrites it once; its indexes and primary key are rebuilt with it).
 */
export const GATEWAY_ID_COLUMNS: IdColumns = {
  workspaces: ['id'],
  api_keys: ['id', 'workspace_id'],
  integrations: ['id', 'workspace_id'],
};

/**
 * The highest start of a block of ids whose last id is still 2^53 − 1: past it a sequence refuses to
 * hand out a block rather than mint ids a JavaScript number cannot hold exactly.
 */
export const LAST_BLOCK_START = Number.MAX_SAFE_INTEGER - ID_BLOCK_SIZE + 1;

export class GatewayBigintIds1764000000000 implements MigrationInterface {
  name = 'GatewayBigintIds1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    await alterIdColumns(runner, GATEWAY_ID_COLUMNS, 'bigint');
    for (const kind of ID_KINDS) {
      await runner.query(`ALTER SEQUENCE IF EXISTS ${kind}_ids MAXVALUE ${LAST_BLOCK_START}`);
    }
  }

  /** Fails, leaving everything as it was, when a stored id no longer fits in integer. */
  async down(runner: QueryRunner): Promise<void> {
    for (const kind of ID_KINDS) await runner.query(`ALTER SEQUENCE IF EXISTS ${kind}_ids NO MAXVALUE`);
    await alterIdColumns(runner, GATEWAY_ID_COLUMNS, 'integer');
  }
}
