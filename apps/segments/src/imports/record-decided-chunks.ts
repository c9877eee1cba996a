import type { ImportJobEntity } from './import-job.entity';
import type { ImportJobRepository } from './import-job.repository';
import { applyDecidedChunk, type DecidedChunk } from './import-progress';

/**
 * Adds decided chunks to their job and its audience and stores the job: answers whether they completed
 * it (its `finished_at` is then its latest chunk's time).
 */
export async function recordDecidedChunks(
  jobs: ImportJobRepository,
  job: ImportJobEntity,
  chunks: readonly DecidedChunk[],
): Promise<boolean> {
  let completed = false;
  const members: number[] = [];
  for (const chunk of chunks) {
    const effects = applyDecidedChunk(job, chunk);
    members.push(...effects.members);
    completed ||= effects.completed;
  }
  await jobs.addMembers(job.audienceId, job.workspaceId, members);
  if (completed) job.finishedAt = await jobs.lastChunkAt(job.id);
  await jobs.saveProgress(job);
  return completed;
}
