import { SEGMENTS_FACT_TYPES, type ImportFailRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import { ImportJobRepository } from '../import-job.repository';
import { failJob } from '../import-progress';
import { importJobFact } from '../import-job.resource';
import { ImportsException } from '../imports.exception';

/**
 * `audience-import.fail.requested`, from the import worker: the upload's rows went (removed once
 * expired) before every chunk of the job was sent, so the job can never complete. It is `failed` from
 * the record's time on (or an earlier failure's: a refused chunk); chunks sent before still count when
 * decided, and their contacts stay members.
 */
@Injectable()
export class FailImportHandler {
  async handle(decision: Decision<ImportFailRequestedV1>): Promise<Answer> {
    const jobs = new ImportJobRepository(decision.manager);
    await jobs.lock(decision.data.job_id);
    const job = await jobs.findForUpdate(decision.data.job_id);
    if (!job || job.workspaceId !== decision.workspaceId)
      throw ImportsException.jobNotFound(decision.data.job_id);
    const failed = failJob(job, decision.atDate);
    await jobs.saveProgress(job);
    if (failed) decision.fact(SEGMENTS_FACT_TYPES.importFailed, String(job.id), importJobFact(job));
    return { status: 202 };
  }
}
