import type { MigrationInterface, QueryRunner } from 'typeorm';

import { ID_BLOCK_SIZE } from '../src/ids/id-kinds';
import { LAST_BLOCK_START } from './1764000000000-gateway-bigint-ids.migration';

/**
 * The sequence of import job ids (extensions §11), made as the first migration makes every kind's:
 * one `nextval` reserves a block for one gateway replica, and no block reaches past 2^53 − 1. A schema
 * made from scratch has it already (the first migration makes every kind of ID_KINDS), hence IF NOT
 * EXISTS; going down leaves it to the first migration, which drops every kind's.
 */
export class GatewayImportJobIds1795800000001 implements MigrationInterface {
  name = 'GatewayImportJobIds1795800000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE SEQUENCE IF NOT EXISTS import_job_ids INCREMENT BY ${ID_BLOCK_SIZE} START WITH 1 MINVALUE 1 MAXVALUE ${LAST_BLOCK_START}`,
    );
  }

  async down(): Promise<void> {
    // The first migration's down drops it with the other kinds' sequences.
  }
}
