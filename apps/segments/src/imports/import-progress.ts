import { MAX_IMPORT_JOB_ERRORS, type ImportRowDecisionV1, type ImportRowErrorV1 } from '@cms/contracts';

import type { ImportJobEntity } from './import-job.entity';

/** A chunk of a job's rows as the contacts service decided it. */
export interface DecidedChunk {
  chunk: number;
  /** The time of the record that decided it. */
  at: Date;
  rows: readonly ImportRowDecisionV1[];
}

/** What applying a chunk changed beyond the job's own columns. */
export interface ChunkEffects {
  /** The contacts the chunk matched or created: the audience's new members (a contact may repeat). */
  members: number[];
  /** The job reached its last row with this chunk. */
  completed: boolean;
}

/** The job's errors with the chunk's skipped rows: the first MAX_IMPORT_JOB_ERRORS, in row order. */
export function mergeErrors(
  errors: readonly ImportRowErrorV1[],
  rows: readonly ImportRowDecisionV1[],
): ImportRowErrorV1[] {
  const skipped = rows
    .filter((row) => row.outcome === 'skipped')
    .map((row) => ({ row: row.row, reason: row.reason ?? 'unknown' }));
  if (skipped.length === 0) return [...errors];
  return [...errors, ...skipped].sort((a, b) => a.row - b.row).slice(0, MAX_IMPORT_JOB_ERRORS);
}

/**
 * Adds a decided chunk to its job, in memory. Whatever order a job's chunks come in (a rebuild reads
 * them beside the job's requests), the job ends the same: counters are sums, errors the first ones
 * by row, `started_at` the earliest chunk's time; a failed job stays failed (its counters still count
 * what was decided). The caller stamps `finished_at` of a job this completes with its latest chunk's time.
 */
export function applyDecidedChunk(job: ImportJobEntity, chunk: DecidedChunk): ChunkEffects {
  const members: number[] = [];
  for (const row of chunk.rows) {
    if (row.outcome === 'created') job.contactsCreated += 1;
    else if (row.outcome === 'matched') job.contactsMatched += 1;
    else job.rowsSkipped += 1;
    if (row.outcome !== 'skipped' && row.contact_id !== null) members.push(row.contact_id);
  }
  job.rowsProcessed += chunk.rows.length;
  job.errors = mergeErrors(job.errors, chunk.rows);
  if (job.startedAt === null || chunk.at < job.startedAt) job.startedAt = chunk.at;
  if (job.status === 'failed' || job.status === 'completed') return { members, completed: false };
  if (job.rowsProcessed >= job.rowsTotal) {
    job.status = 'completed';
    return { members, completed: true };
  }
  job.status = 'running';
  return { members, completed: false };
}
