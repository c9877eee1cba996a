import {
  createEnvelope,
  deterministicId,
  type ContactSnapshotV1,
  type DecodedRecord,
  type Envelope,
} from '@cms/contracts';
import type { RecordContext } from '@cms/kafka';

import { SOURCE } from '../config';
import type { ContactEntity } from '../contacts/contact.entity';

/**
 * The run input a fact of another topic becomes (RUN_INPUT_TYPES), for the requests topic: its id
 * derived from the fact's, so the fact read again makes the same record; below the replay horizon
 * `emit` drops it, as an earlier life of the service appended it.
 */
export function emitRunInput(
  context: Pick<RecordContext, 'emit'>,
  requestsTopic: string,
  fact: DecodedRecord,
  type: string,
  subject: string,
  data: object,
): void {
  const envelope: Envelope = createEnvelope({
    id: deterministicId(fact.id, type),
    type,
    source: SOURCE,
    workspaceid: fact.workspaceid,
    correlationid: fact.correlationid,
    causationid: fact.id,
    time: fact.time,
    subject,
    data,
  });
  context.emit(requestsTopic, envelope);
}

/** The contact as the view holds it, as run inputs carry it. */
export function contactSnapshot(row: ContactEntity): ContactSnapshotV1 {
  return {
    contact_id: row.id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    external_id: row.externalId,
    source: row.source,
    data: row.data,
    marketing_consent: row.marketingConsent,
    tag_ids: row.tagIds,
    channels: row.channels,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
