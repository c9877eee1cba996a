import {
  MESSAGING_RECORD_TYPES,
  selectRecordTypes,
  SUPPRESSION_FACT_TYPES,
  type SuppressionChangedV1,
} from '@cms/contracts';
import { workspaceIdOf, type ChunkRecord } from '@cms/kafka';
import type { EntityManager } from 'typeorm';

import { RevisionMarks } from './revision-marks';

/** The facts of cms.messaging.v1 the view reads: the suppression list's changes. */
export const SUPPRESSION_VIEW_TYPES = [SUPPRESSION_FACT_TYPES.added, SUPPRESSION_FACT_TYPES.removed] as const;

const VIEWED = selectRecordTypes(SUPPRESSION_VIEW_TYPES, MESSAGING_RECORD_TYPES);

export const SUPPRESSION_VIEW_RECORD_TYPES = VIEWED.definitions;

export const isSuppressionFact = VIEWED.takes;

/**
 * Applies suppression facts in their order: an entry added is active, removed inactive (kept, so a
 * reader that saw it active learns it went). Each row carries the offset of its last change.
 */
export async function applySuppressionFacts(
  manager: EntityManager,
  records: readonly ChunkRecord[],
): Promise<void> {
  const entries = new Map<string, [string, number, string, string, boolean, number]>();
  const marks = new RevisionMarks();
  for (const { record, context } of records) {
    if (!isSuppressionFact(record)) continue;
    const fact = record.data as SuppressionChangedV1;
    const workspaceId = workspaceIdOf(record);
    const revision = Number(context.offset);
    const active = record.type === SUPPRESSION_FACT_TYPES.added;
    entries.set(fact.id, [fact.id, workspaceId, fact.channel, fact.address, active, revision]);
    marks.suppressions(workspaceId, revision);
  }
  if (entries.size === 0) return;
  const rows = [...entries.values()];
  await manager.query(
    `INSERT INTO suppressions (id, workspace_id, channel, address, active, revision)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::boolean[], $6::bigint[])
     ON CONFLICT (id) DO UPDATE SET active = EXCLUDED.active, revision = EXCLUDED.revision`,
    [0, 1, 2, 3, 4, 5].map((column) => rows.map((row) => row[column])),
  );
  await marks.write(manager);
}
