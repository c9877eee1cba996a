import { MAX_IMPORT_JOB_ERRORS, type ImportRowDecisionV1, type ImportRowErrorV1 } from '@cms/contracts';

import type { ImportJobEntity } from './import-job.entity';

/** A chunk of a job's rows as the contacts service decided it. */
export interface DecidedChunk {
  chunk: number;
  /** The time of the record that decided it. */
  at: Date;
  rows: readonly ImportRowDecisionV1[];
  /**
   * Set when the contacts service refused the chunk (contact.import-rows.refused, the reason of its
   * dead letter): none of its rows was decided, and the job fails.
   */
  refused?: string | null;
}

/** What applying a chunk changed beyond the job's own columns. */
export interface ChunkEffects {
  /** The contacts the chunk matched or created: the audience's new members (a contact may repeat). */
  members: number[];
  /** The job reached its last row with this chunk. */
  completed: boolean;
  /** The job failed with this chunk (it was refused). */
  failed: boolean;
}

/**
 * Ends a job that can no longer complete (its upload went, a chunk was refused): `failed`, finished
 * at the earliest such time, whatever order its failures are applied in (a rebuild reads the topics
 * they come from side by side). Answers whether this failed it; a completed job stays completed.
 */
export function failJob(job: ImportJobEntity, at: Date): boolean {
  if (job.status === 'completed') return false;
  const first = job.status !== 'failed';
  job.status = 'failed';
  if (job.finishedAt === null || at < job.finishedAt) job.finishedAt = at;
  return first;
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
 * what was decided), and a refused chunk fails it (failJob). The caller stamps `finished_at` of a job
 * this completes with its latest chunk's time.
 */
export function applyDecidedChunk(job: ImportJobEntity, chunk: DecidedChunk): ChunkEffects {
  const members: number[] = [];
  if (job.startedAt === null || chunk.at < job.startedAt) job.startedAt = chunk.at;
  if (chunk.refused) return { members, completed: false, failed: failJob(job, chunk.at) };
  for (const row of chunk.rows) {
    if (row.outcome === 'created') job.contactsCreated += 1;
    else if (row.outcome === 'matched') job.contactsMatched += 1;
    else job.rowsSkipped += 1;
    if (row.outcome !== 'skipped' && row.contact_id !== null) members.push(row.contact_id);
  }
  job.rowsProcessed += chunk.rows.length;
  job.errors = mergeErrors(job.errors, chunk.rows);
  if (job.status === 'failed' || job.status === 'completed')
    return { members, completed: false, failed: false };
  if (job.rowsProcessed >= job.rowsTotal) {
    job.status = 'completed';
    return { members, completed: true, failed: false };
  }
  job.status = 'running';
  return { members, completed: false, failed: false };
}
