import type { ImportJobFactV1 } from '@cms/contracts';

import type { ImportJobEntity } from './import-job.entity';

/** The data of the import job facts: the job as `GET /api/v1/audience-import/jobs/{id}` shows it. */
export function importJobFact(job: ImportJobEntity): ImportJobFactV1 {
  return {
    id: job.id,
    status: job.status,
    audience_id: job.audienceId,
    rows_total: job.rowsTotal,
    rows_processed: job.rowsProcessed,
    contacts_created: job.contactsCreated,
    contacts_matched: job.contactsMatched,
    rows_skipped: job.rowsSkipped,
    errors: job.errors,
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}

/**
 * The job resource (extensions §11), with `updated_at` (§8): when it last changed, i.e. its creation,
 * its last decided chunk or its end, whichever is latest.
 */
export function importJobResource(job: ImportJobEntity, lastChunkAt: Date | null): Record<string, unknown> {
  const times = [job.createdAt, lastChunkAt, job.finishedAt].filter((at): at is Date => at !== null);
  const updatedAt = new Date(Math.max(...times.map((at) => at.getTime())));
  return { ...importJobFact(job), updated_at: updatedAt.toISOString() };
}
