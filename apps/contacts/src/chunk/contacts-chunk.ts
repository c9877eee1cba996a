import {
  acceptedOutcome,
  CONTACT_REQUEST_TYPES,
  EVENT_REQUEST_TYPES,
  rejectedOutcome,
  type ContactUpdateRequestedV1,
  type ContactUpsertRequestedV1,
  type DecodedRecord,
  type EventRecordRequestedV1,
} from '@cms/contracts';
import {
  Decision,
  RequestRefusedError,
  workspaceIdOf,
  type Answer,
  type ChunkHandler,
  type ChunkRecord,
} from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { CONTACTS_CONFIG, type ContactsConfig } from '../config';
import type { ContactChanges } from '../contacts/contact-changes';
import { contactEndpointChanges } from '../contacts/contact-input';
import { useStore } from '../contacts/contact-store';
import { eventContactChanges } from '../contacts/event-contact';
import { UpdateContactHandler } from '../contacts/update-contact/update-contact.handler';
import { UpsertContactHandler } from '../contacts/upsert-contact/upsert-contact.handler';
import { SOURCE } from '../decisions/decision';
import { RecordEventHandler } from '../events/record-event/record-event.handler';
import { ChunkContactStore, emptyKeys, keyOf, type ChunkKeys } from './chunk-contact-store';

type Handle = (decision: Decision<never>) => Promise<Answer>;

/**
 * A decision below the replay horizon: its facts were published by an earlier life of the projection
 * and would be dropped, so they are not even made (their ids are hashes, the costliest part of them).
 */
class ReplayedDecision<T> extends Decision<T> {
  override fact(): void {
    // Nothing to publish.
  }
}

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
    case CONTACT_REQUEST_TYPES.update: {
      const { contact_id: id, ...body } = record.data as ContactUpdateRequestedV1;
      keys.contactIds.add(id);
      addChanges(keys, workspaceId, endpointChanges(body));
      return;
    }
  }
}

/**
 * Event requests, contact upserts and contact updates of a partition's chunk, decided together: the
 * state they can read is loaded in a few statements, each record is decided in order by the same
 * handler as on its own (against that state, in memory), and what they wrote is stored with one
 * statement per table. A request that needs the inbound receipts (retry ids) is decided on its own.
 */
@Injectable()
export class ContactsChunk implements ChunkHandler {
  private readonly handlers: ReadonlyMap<string, Handle>;

  constructor(
    @Inject(CONTACTS_CONFIG) private readonly config: ContactsConfig,
    @Inject(RecordEventHandler) recordEvent: RecordEventHandler,
    @Inject(UpsertContactHandler) upsert: UpsertContactHandler,
    @Inject(UpdateContactHandler) update: UpdateContactHandler,
  ) {
    this.handlers = new Map<string, Handle>([
      [EVENT_REQUEST_TYPES.record, (decision) => recordEvent.handle(decision)],
      [CONTACT_REQUEST_TYPES.upsert, (decision) => upsert.handle(decision)],
      [CONTACT_REQUEST_TYPES.update, (decision) => update.handle(decision)],
    ]);
  }

  takes(record: DecodedRecord): boolean {
    if (!this.handlers.has(record.type)) return false;
    try {
      workspaceIdOf(record);
    } catch {
      return false;
    }
    if (record.type !== EVENT_REQUEST_TYPES.record) return true;
    return ((record.data as EventRecordRequestedV1).retry_keys ?? []).length === 0;
  }

  async apply(records: ChunkRecord[], manager: EntityManager): Promise<void> {
    const keys = emptyKeys();
    for (const { record } of records) addKeys(keys, record);
    const store = await ChunkContactStore.load(manager, keys);
    for (const { record, context, inSpan } of records) {
      await inSpan(() => this.decide(store, record, context));
    }
    await store.flush(manager);
  }

  /** decideRequest's frame, with the chunk's state in place of the record's savepoint. */
  private async decide(
    store: ChunkContactStore,
    record: DecodedRecord,
    context: ChunkRecord['context'],
  ): Promise<void> {
    const { topics } = this.config;
    const decision = context.replaying
      ? new ReplayedDecision(record, context.manager, SOURCE)
      : new Decision(record, context.manager, SOURCE);
    useStore(decision, store);
    const mark = store.mark();
    let answer: Answer;
    try {
      answer = await this.handlers.get(record.type)!(decision as Decision<never>);
    } catch (error) {
      if (!(error instanceof RequestRefusedError)) throw error;
      store.rollback(mark);
      if (context.replaying) return;
      context.emit(topics.outcomes, rejectedOutcome(record, SOURCE, error.status, error.toErrors()));
      return;
    }
    // Below the replay horizon nothing is published: the envelopes need not even be made.
    if (context.replaying) return;
    for (const fact of decision.publishedFacts) context.emit(topics.contacts, fact);
    context.emit(topics.outcomes, acceptedOutcome(record, SOURCE, answer.status, answer.resource));
  }
}
