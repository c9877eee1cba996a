import {
  ID_BLOCK_SIZE,
  SEGMENTS_FACT_TYPES,
  type ImportJobStatus,
  type ImportProcessRequestedV1,
} from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import { AudienceEntity } from '../../audiences/audience.entity';
import { AudienceRepository } from '../../audiences/audience.repository';
import { audienceFact } from '../../audiences/audience.resource';
import { ImportJobEntity } from '../import-job.entity';
import { ImportJobRepository } from '../import-job.repository';
import { importJobFact } from '../import-job.resource';
import { ImportsException } from '../imports.exception';
import { JOB_END_FACT_TYPES, recordDecidedChunks } from '../record-decided-chunks';

/**
 * `audience-import.process.requested`: a new audience (`source: import`) and its job, queued for the
 * import worker, which finds it and sends its rows to the contacts service a chunk at a time.
 *
 * The decision reads only the record and the projection: the upload's row count and expiry come in
 * the record (the gateway read them in the caller's workspace), and the upload's expiry is judged
 * against the record's time. Deciding it again from the log (a rebuild, long after the upload was
 * removed) therefore decides the same; the worker, which reads the upload's rows, fails the job when
 * they are gone (audience-import.fail.requested).
 *
 * Processing the same path twice imports nothing twice: the second request is a job of its own, into
 * an audience of its own (another name), and its rows are matched like the first one's, by phone
 * then email: every contact the first job created is matched by the second, none is created again,
 * and both audiences hold the same contacts. A client's retry of one request (same name) is refused
 * at `audience_name` once the first was decided.
 */
@Injectable()
export class ProcessImportHandler {
  async handle(decision: Decision<ImportProcessRequestedV1>): Promise<Answer> {
    const { data, workspaceId } = decision;
    const jobs = new ImportJobRepository(decision.manager);
    const audiences = new AudienceRepository(decision.manager);
    await jobs.lock(data.job_id);
    if (await jobs.exists(data.job_id)) throw ImportsException.idInUse('Import job', data.job_id);
    if (await audiences.exists(data.audience_id))
      throw ImportsException.idInUse('Audience', data.audience_id);
    if (decision.atDate >= new Date(data.upload_expires_at)) throw ImportsException.uploadExpired(data.path);
    const mapping = {
      phone: data.mapping.phone ?? null,
      email: data.mapping.email ?? null,
      name: data.mapping.name ?? null,
    };
    if (mapping.phone === null && mapping.email === null) throw ImportsException.noIdentifierColumn();
    const blocksNeeded = Math.ceil(data.rows_total / ID_BLOCK_SIZE);
    if (data.id_blocks.length !== blocksNeeded) {
      throw ImportsException.idBlocksMismatch(data.id_blocks.length, blocksNeeded);
    }
    if (await audiences.nameTaken(workspaceId, data.audience_name)) {
      throw ImportsException.audienceNameTaken(data.audience_name);
    }

    const audience = Object.assign(new AudienceEntity(), {
      id: data.audience_id,
      workspaceId,
      name: data.audience_name,
      source: 'import',
      filterCriteria: [],
      includeContactIds: [],
      excludeContactIds: [],
      createdAt: decision.atDate,
      updatedAt: decision.atDate,
    });
    await audiences.insert(audience);
    decision.fact(SEGMENTS_FACT_TYPES.audienceCreated, String(audience.id), () => audienceFact(audience));

    const job = Object.assign(new ImportJobEntity(), {
      id: data.job_id,
      workspaceId,
      audienceId: audience.id,
      path: data.path,
      mapping,
      createNewEntities: data.create_new_entities ?? false,
      contactLimit: data.contact_limit,
      idBlocks: data.id_blocks,
      status: 'queued' satisfies ImportJobStatus,
      rowsTotal: data.rows_total,
      rowsProcessed: 0,
      contactsCreated: 0,
      contactsMatched: 0,
      rowsSkipped: 0,
      errors: [],
      createdAt: decision.atDate,
      startedAt: null,
      finishedAt: null,
    });
    await jobs.insert(job);
    decision.fact(SEGMENTS_FACT_TYPES.importQueued, String(job.id), importJobFact(job));

    // Chunks decided before the job was known: only in a rebuild, which reads both topics side by side.
    const pending = await jobs.takePending(job.id);
    let end = pending.length > 0 ? await recordDecidedChunks(jobs, job, pending) : null;
    if (job.rowsTotal === 0) {
      // Nothing to send: done as soon as decided.
      Object.assign(job, { status: 'completed', startedAt: decision.atDate, finishedAt: decision.atDate });
      await jobs.saveProgress(job);
      end = 'completed';
    }
    if (end !== null) decision.fact(JOB_END_FACT_TYPES[end], String(job.id), importJobFact(job));
    // The job as queued: the status the specification answers (the job itself may be further by now).
    return { status: 202, resource: { job_id: job.id, audience_id: audience.id, status: 'queued' } };
  }
}
