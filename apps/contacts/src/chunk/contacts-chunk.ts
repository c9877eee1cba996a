import {
  CONTACT_REQUEST_TYPES,
  EVENT_REQUEST_TYPES,
  IMPORT_ROWS_REQUEST_TYPE,
  type ContactBatchUpsertRequestedV1,
  type ContactImportRowsRequestedV1,
  type ContactUpdateRequestedV1,
  type ContactUpsertRequestedV1,
  type DecodedRecord,
  type EventRecordRequestedV1,
} from '@cms/contracts';
import {
  handlerFor,
  workspaceIdOf,
  type ChunkHandler,
  type ChunkRecord,
  type RequestHandlers,
} from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import type { ContactChanges } from '../contacts/contact-changes';
import { contactEndpointChanges } from '../contacts/contact-input';
import { eventContactChanges } from '../contacts/event-contact';
import { BatchUpsertContactsHandler } from '../contacts/batch-upsert-contacts/batch-upsert-contacts.handler';
import { ImportRowsHandler } from '../contacts/import-rows/import-rows.handler';
import { readImportRow } from '../contacts/import-rows/import-row';
import { UpdateContactHandler } from '../contacts/update-contact/update-contact.handler';
import { UpsertContactHandler } from '../contacts/upsert-contact/upsert-contact.handler';
import type { ContactsDecision } from '../decisions/decision';
import { RequestDecider } from '../decisions/request-decider';
import { RecordEventHandler } from '../events/record-event/record-event.handler';
import { ChunkContactStore, emptyKeys, importChunkKey, keyOf, type ChunkKeys } from './chunk-contact-store';

/** The requests a chunk decides together. */
type ChunkRequestType =
  | typeof EVENT_REQUEST_TYPES.record
  | typeof CONTACT_REQUEST_TYPES.upsert
  | typeof CONTACT_REQUEST_TYPES.update
  | typeof CONTACT_REQUEST_TYPES.batchUpsert
  | typeof IMPORT_ROWS_REQUEST_TYPE;

/** Requests of other services, which nobody waits for: decided without an outcome. */
const UNANSWERED: ReadonlySet<string> = new Set([IMPORT_ROWS_REQUEST_TYPE]);

/** Requests that each hold many (up to 1,000 upserts, 1,000 import rows). */
const MANY_IN_ONE: ReadonlySet<string> = new Set([
  CONTACT_REQUEST_TYPES.batchUpsert,
  IMPORT_ROWS_REQUEST_TYPE,
]);

/** The contact values a request may look contacts up by; none when its body is refused anyway. */
function endpointChanges(body: Parameters<typeof contactEndpointChanges>[0]): ContactChanges {
  try {
    return contactEndpointChanges(body, '');
  } catch {
    return {};
  }
}

function addChanges(keys: ChunkKeys, workspaceId: number, changes: ContactChanges): void {
  if (changes.phone) keys.phones.add(keyOf(workspaceId, changes.phone));
  if (changes.external_id) keys.externalIds.add(keyOf(workspaceId, changes.external_id));
  if (changes.email) keys.emails.add(keyOf(workspaceId, changes.email));
}

/** What a record can read: added to `keys`. */
function addKeys(keys: ChunkKeys, record: DecodedRecord): void {
  const workspaceId = workspaceIdOf(record);
  keys.workspaces.add(workspaceId);
  switch (record.type) {
    case EVENT_REQUEST_TYPES.record: {
      const data = record.data as EventRecordRequestedV1;
      keys.eventIds.add(data.event_id);
      keys.contactIds.add(data.contact_id);
      if (data.idempotency_key !== undefined) {
        keys.idempotencyKeys.add(keyOf(workspaceId, data.idempotency_key));
      }
      addChanges(keys, workspaceId, eventContactChanges(data.contact));
      return;
    }
    case CONTACT_REQUEST_TYPES.upsert: {
      const {
        contact_id: candidateId,
        contact_limit: _limit,
        ...body
      } = record.data as ContactUpsertRequestedV1;
      keys.contactIds.add(candidateId);
      addChanges(keys, workspaceId, endpointChanges(body));
      return;
    }
    case CONTACT_REQUEST_TYPES.batchUpsert: {
      for (const element of (record.data as ContactBatchUpsertRequestedV1).contacts) {
        const { contact_id: candidateId, ...body } = element;
        keys.contactIds.add(candidateId);
        addChanges(keys, workspaceId, endpointChanges(body));
      }
      return;
    }
    case CONTACT_REQUEST_TYPES.update: {
      const { contact_id: id, ...body } = record.data as ContactUpdateRequestedV1;
      keys.contactIds.add(id);
      addChanges(keys, workspaceId, endpointChanges(body));
      return;
    }
    case IMPORT_ROWS_REQUEST_TYPE: {
      const data = record.data as ContactImportRowsRequestedV1;
      keys.importChunks.add(importChunkKey(workspaceId, data.job_id, data.chunk));
      for (const row of data.rows) {
        const reading = readImportRow(row);
        if ('reason' in reading) continue;
        // The id reserved for the row, for a job that creates contacts.
        if (data.create_new_entities) keys.contactIds.add(row.contact_id);
        addChanges(keys, workspaceId, reading.changes);
      }
      return;
    }
  }
}

/**
 * Event requests, contact upserts, batches of them, contact updates and chunks of import rows of a
 * partition's chunk, decided together: the
 * state they can read is loaded in a few statements, each record is decided in order by the same
 * handler as on its own (against that state, in memory), and what they wrote is stored with one
 * statement per table. A request that needs the inbound receipts (retry ids) is decided on its own.
 */
@Injectable()
export class ContactsChunk implements ChunkHandler {
  private readonly handlers: RequestHandlers<ChunkRequestType, ContactsDecision>;

  constructor(
    @Inject(RequestDecider) private readonly decider: RequestDecider,
    @Inject(RecordEventHandler) recordEvent: RecordEventHandler,
    @Inject(UpsertContactHandler) upsert: UpsertContactHandler,
    @Inject(UpdateContactHandler) update: UpdateContactHandler,
    @Inject(BatchUpsertContactsHandler) batch: BatchUpsertContactsHandler,
    @Inject(ImportRowsHandler) importRows: ImportRowsHandler,
  ) {
    this.handlers = {
      [EVENT_REQUEST_TYPES.record]: (decision) => recordEvent.handle(decision),
      [CONTACT_REQUEST_TYPES.upsert]: (decision) => upsert.handle(decision),
      [CONTACT_REQUEST_TYPES.update]: (decision) => update.handle(decision),
      [CONTACT_REQUEST_TYPES.batchUpsert]: (decision) => batch.handle(decision),
      [IMPORT_ROWS_REQUEST_TYPE]: (decision) => importRows.handle(decision),
    };
  }

  /**
   * A batch is up to 1,000 upserts, a chunk of an import up to 1,000 rows: decided against state loaded
   * in a few statements even when it is the only record in hand, rather than with a few statements per
   * element, which would hold every partition of the consumer (other workspaces' writes) for seconds.
   */
  worthAlone(record: Pick<DecodedRecord, 'type'>): boolean {
    return MANY_IN_ONE.has(record.type);
  }

  takes(record: DecodedRecord): boolean {
    if (handlerFor(this.handlers, record.type) === undefined) return false;
    try {
      workspaceIdOf(record);
    } catch {
      return false;
    }
    if (record.type !== EVENT_REQUEST_TYPES.record) return true;
    return ((record.data as EventRecordRequestedV1).retry_keys ?? []).length === 0;
  }

  /**
   * Each record is decided by the same decider and handler as on its own, against the chunk's state
   * (a refused record is undone through the store's undo scope).
   */
  async apply(records: ChunkRecord[], manager: EntityManager): Promise<void> {
    const keys = emptyKeys();
    for (const { record } of records) addKeys(keys, record);
    const store = await ChunkContactStore.load(manager, keys);
    for (const { record, context, inSpan } of records) {
      const handler = handlerFor(this.handlers, record.type)!;
      await inSpan(() =>
        UNANSWERED.has(record.type)
          ? this.decider.decideUnanswered(record, context, handler, store)
          : this.decider.decide(record, context, handler, store),
      );
    }
    await store.flush(manager);
  }
}
