import {
  createEnvelope,
  deterministicId,
  IMPORT_ROWS_REFUSED_FACT_TYPE,
  IMPORT_ROWS_REQUEST_TYPE,
  type ContactImportRowsRefusedV1,
} from '@cms/contracts';
import type { RecordContext, RejectedRecord } from '@cms/kafka';

import type { ContactsConfig } from '../../config';
import { SOURCE } from '../../decisions/decision';

/** What a refusal needs of the chunk's record: its envelope's ids and the chunk it was. */
interface RefusedChunk {
  id: string;
  workspaceid: string;
  correlationid: string;
  time: string;
  jobId: number;
  chunk: number;
}

function isCount(value: unknown, least: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= least;
}

/**
 * The import chunk a rejected record was, if it was one: from the decoded record, or, when its data
 * failed validation (a record is then not decoded), from the envelope and the two numbers that name
 * the chunk, wherever they can be read.
 */
export function refusedChunkOf({ record, raw }: RejectedRecord): RefusedChunk | undefined {
  let envelope: Record<string, unknown> | null = null;
  if (record) {
    envelope = record as unknown as Record<string, unknown>;
  } else {
    try {
      const parsed: unknown = JSON.parse(raw.value?.toString('utf8') ?? 'null');
      if (typeof parsed === 'object' && parsed !== null) envelope = parsed as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }
  if (!envelope || envelope.type !== IMPORT_ROWS_REQUEST_TYPE) return undefined;
  const { id, workspaceid, correlationid, time, data } = envelope;
  const { job_id: jobId, chunk } = (typeof data === 'object' && data !== null ? data : {}) as Record<
    string,
    unknown
  >;
  if (
    typeof id !== 'string' ||
    typeof workspaceid !== 'string' ||
    typeof correlationid !== 'string' ||
    typeof time !== 'string' ||
    !isCount(jobId, 1) ||
    !isCount(chunk, 0)
  ) {
    return undefined;
  }
  return { id, workspaceid, correlationid, time, jobId, chunk };
}

/**
 * Runs in the transaction that dead-letters a record of the requests topic: a chunk of an import that
 * can never be decided (a row whose reserved contact id is taken, a record that fails validation) is
 * refused to its job with `contact.import-rows.refused`, so the job fails rather than waiting for its
 * rows forever. The fact's id is derived from the chunk's record: a rebuild makes the same one.
 */
export function refuseImportChunk(
  rejected: RejectedRecord,
  context: RecordContext,
  config: ContactsConfig,
): void {
  const chunk = refusedChunkOf(rejected);
  if (!chunk) return;
  const data: ContactImportRowsRefusedV1 = {
    job_id: chunk.jobId,
    chunk: chunk.chunk,
    reason: rejected.reason.slice(0, 100),
    error_id: rejected.errorId,
  };
  context.emit(
    config.topics.contacts,
    createEnvelope({
      id: deterministicId(chunk.id, IMPORT_ROWS_REFUSED_FACT_TYPE),
      type: IMPORT_ROWS_REFUSED_FACT_TYPE,
      source: SOURCE,
      workspaceid: chunk.workspaceid,
      subject: String(chunk.jobId),
      correlationid: chunk.correlationid,
      causationid: chunk.id,
      time: chunk.time,
      data,
    }),
  );
}
