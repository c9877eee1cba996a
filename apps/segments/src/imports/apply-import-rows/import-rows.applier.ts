import {
  createEnvelope,
  deterministicId,
  SEGMENTS_FACT_TYPES,
  type ContactImportRowsDecidedV1,
  type DecodedRecord,
  type Envelope,
} from '@cms/contracts';
import { PoisonRecordError, workspaceIdOf } from '@cms/kafka';
import { signalOnCommit } from '@cms/service-kit';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { SOURCE } from '../../config';
import { IMPORT_CHUNKS_DECIDED_SIGNAL } from '../emit-chunks/import.worker';
import { ImportJobRepository } from '../import-job.repository';
import { importJobFact } from '../import-job.resource';
import { recordDecidedChunks } from '../record-decided-chunks';

/**
 * Applies `contact.import-rows.decided` (cms.contacts.v1) to the import jobs: each chunk once (a
 * decision read twice changes nothing), its matched and created contacts added to the job's audience,
 * its counts to the job's, its skipped rows to the job's errors. Answers the facts to publish: a job's
 * `audience-import.completed` when its last rows were decided.
 */
@Injectable()
export class ImportRowsApplier {
  async apply(
    manager: EntityManager,
    records: ReadonlyArray<DecodedRecord<ContactImportRowsDecidedV1>>,
  ): Promise<Envelope[]> {
    const facts: Envelope[] = [];
    const jobs = new ImportJobRepository(manager);
    let recorded = false;
    for (const record of records) {
      const { job_id: jobId, chunk, rows } = record.data;
      const at = new Date(record.time);
      await jobs.lock(jobId);
      const job = await jobs.findForUpdate(jobId);
      if (!job) {
        // Only in a rebuild: the job's request is further on in the requests topic. Its decision applies it.
        await jobs.insertChunk(jobId, chunk, at, rows);
        continue;
      }
      if (job.workspaceId !== workspaceIdOf(record)) {
        throw new PoisonRecordError(`import job ${jobId} is not of workspace ${record.workspaceid}`);
      }
      if (!(await jobs.insertChunk(jobId, chunk, at, null))) continue;
      recorded = true;
      if (await recordDecidedChunks(jobs, job, [{ chunk, at, rows }])) {
        facts.push(
          createEnvelope({
            id: deterministicId(record.id, SEGMENTS_FACT_TYPES.importCompleted),
            type: SEGMENTS_FACT_TYPES.importCompleted,
            source: SOURCE,
            workspaceid: record.workspaceid,
            subject: String(job.id),
            correlationid: record.correlationid,
            causationid: record.id,
            time: record.time,
            data: importJobFact(job),
          }),
        );
      }
    }
    if (recorded) await signalOnCommit(manager, IMPORT_CHUNKS_DECIDED_SIGNAL);
    return facts;
  }
}
