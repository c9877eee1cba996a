import type { ImportJobEntity } from './import-job.entity';
import type { ImportJobRepository } from './import-job.repository';
import { applyDecidedChunk, type DecidedChunk } from './import-progress';

import { SEGMENTS_FACT_TYPES } from '@cms/contracts';

/** How decided chunks ended their job, if they did. */
export type JobEnd = 'completed' | 'failed' | null;

/** The fact a job's end is published as. */
export const JOB_END_FACT_TYPES = {
  completed: SEGMENTS_FACT_TYPES.importCompleted,
  failed: SEGMENTS_FACT_TYPES.importFailed,
} as const;

/**
 * Adds decided chunks to their job and its audience and stores the job: answers whether they completed
 * it (its `finished_at` is then its latest chunk's time) or failed it (a refused chunk).
 */
export async function recordDecidedChunks(
  jobs: ImportJobRepository,
  job: ImportJobEntity,
  chunks: readonly DecidedChunk[],
): Promise<JobEnd> {
  let end: JobEnd = null;
  const members: number[] = [];
  for (const chunk of chunks) {
    const effects = applyDecidedChunk(job, chunk);
    members.push(...effects.members);
    if (effects.completed) end = 'completed';
    else if (effects.failed) end = 'failed';
  }
  await jobs.addMembers(job.audienceId, job.workspaceId, members);
  if (end === 'completed') job.finishedAt = await jobs.lastChunkAt(job.id);
  await jobs.saveProgress(job);
  return end;
}
