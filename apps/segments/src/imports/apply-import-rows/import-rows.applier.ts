import {
  createEnvelope,
  deterministicId,
  IMPORT_ROWS_REFUSED_FACT_TYPE,
  type ContactImportRowsDecidedV1,
  type ContactImportRowsRefusedV1,
  type DecodedRecord,
  type Envelope,
} from '@cms/contracts';
import { PoisonRecordError, workspaceIdOf } from '@cms/kafka';
import { signalOnCommit } from '@cms/service-kit';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { SOURCE } from '../../config';
import { IMPORT_WORK_SIGNAL } from '../import-work-signal';
import { ImportJobRepository } from '../import-job.repository';
import { importJobFact } from '../import-job.resource';
import type { DecidedChunk } from '../import-progress';
import { JOB_END_FACT_TYPES, recordDecidedChunks } from '../record-decided-chunks';

/** What the contacts service answered a job's chunk with: its rows decided, or the chunk refused. */
export type ImportChunkAnswer =
  DecodedRecord<ContactImportRowsDecidedV1> | DecodedRecord<ContactImportRowsRefusedV1>;

function decidedChunk(record: ImportChunkAnswer): DecidedChunk {
  const at = new Date(record.time);
  if (record.type === IMPORT_ROWS_REFUSED_FACT_TYPE) {
    const { chunk, reason } = record.data as ContactImportRowsRefusedV1;
    return { chunk, at, rows: [], refused: reason };
  }
  const { chunk, rows } = record.data as ContactImportRowsDecidedV1;
  return { chunk, at, rows };
}

/**
 * Applies the contacts service's answers to a job's chunks (cms.contacts.v1) to the import jobs: each
 * chunk once (an answer read twice changes nothing). A `contact.import-rows.decided` adds its matched
 * and created contacts to the job's audience, its counts to the job's and its skipped rows to the
 * job's errors; a `contact.import-rows.refused` (a chunk that could never be decided) fails the job.
 * Answers the facts to publish: a job's `audience-import.completed` when its last rows were decided,
 * its `audience-import.failed` when a refused chunk failed it.
 */
@Injectable()
export class ImportRowsApplier {
  async apply(manager: EntityManager, records: readonly ImportChunkAnswer[]): Promise<Envelope[]> {
    const facts: Envelope[] = [];
    const jobs = new ImportJobRepository(manager);
    let recorded = false;
    for (const record of records) {
      const jobId = record.data.job_id;
      const chunk = decidedChunk(record);
      await jobs.lock(jobId);
      const job = await jobs.findForUpdate(jobId);
      if (!job) {
        // Only in a rebuild: the job's request is further on in the requests topic. Its decision applies it.
        await jobs.insertChunk(jobId, chunk, true);
        continue;
      }
      if (job.workspaceId !== workspaceIdOf(record)) {
        throw new PoisonRecordError(`import job ${jobId} is not of workspace ${record.workspaceid}`);
      }
      if (!(await jobs.insertChunk(jobId, chunk, false))) continue;
      recorded = true;
      const end = await recordDecidedChunks(jobs, job, [chunk]);
      if (end === null) continue;
      const type = JOB_END_FACT_TYPES[end];
      facts.push(
        createEnvelope({
          id: deterministicId(record.id, type),
          type,
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
    if (recorded) await signalOnCommit(manager, IMPORT_WORK_SIGNAL);
    return facts;
  }
}
