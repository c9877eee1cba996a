import { createEnvelope, deterministicId, type Envelope } from '@cms/contracts';
import { appendToOutbox, envelopeRecord } from '@cms/kafka';
import type { EntityManager } from 'typeorm';

import { SOURCE } from '../config';

/** A request record a worker appends about a message, to be decided in log order with the customer's. */
export interface WorkerRecord {
  /** Its envelope id: derived from what it records, so a record made twice is one record. */
  id: string;
  type: string;
  workspaceId: number;
  messageId: string;
  data: object;
}

/**
 * Appends the workers' records to the outbox, for the requests topic (key = workspace id), in the
 * caller's transaction: the one that also removes the job or timer they finish.
 */
export async function appendWorkerRecords(
  manager: EntityManager,
  requestsTopic: string,
  records: WorkerRecord[],
  time: Date,
): Promise<void> {
  await appendToOutbox(
    manager,
    records.map((record) => {
      const envelope: Envelope = createEnvelope({
        id: record.id,
        type: record.type,
        source: SOURCE,
        workspaceid: String(record.workspaceId),
        subject: record.messageId,
        time: time.toISOString(),
        data: record.data,
      });
      return envelopeRecord(requestsTopic, envelope);
    }),
  );
}

/** The envelope id of the one attempt record a message ever gets. */
export function attemptRecordId(messageId: string): string {
  return deterministicId(messageId, 'attempt');
}
