import {
  EVENT_FACT_TYPES,
  RUN_INPUT_TYPES,
  type AutomationEventRecordedV1,
  type DecodedRecord,
  type EventRecordedV1,
} from '@cms/contracts';
import { workspaceIdOf, type ChunkRecord } from '@cms/kafka';
import {
  ContactView,
  contactViewConsumer,
  type ContactViewRows,
  type ContactViewRun,
} from '@cms/service-kit';

import { AUTOMATIONS_CONFIG, type AutomationsConfig } from '../config';
import { contactSnapshot, emitRunInput } from '../runs/run-inputs';
import { CONTACTS_TRANSPORT } from '../transports';
import { ContactEntity } from './contact.entity';

/**
 * What the automations view does besides the snapshots, links and tags: every recorded event becomes an automation.event.recorded input for the
 * runs, carrying the contact as that event left it (the view's row at the event's place in the topic).
 * An event of a contact the view never saw (its snapshot comes first in the topic) starts nothing.
 */
class AutomationsViewRun implements ContactViewRun<ContactEntity> {
  constructor(private readonly requestsTopic: string) {}

  apply(at: ChunkRecord, rows: ContactViewRows<ContactEntity>): void {
    const { record } = at;
    const workspaceId = workspaceIdOf(record);
    const fact = record.data as EventRecordedV1;
    const row = rows.inWorkspace(workspaceId, fact.contact_id);
    if (!row) return;
    const input: AutomationEventRecordedV1 = {
      event: { id: fact.event_id, name: fact.name, data: fact.data, occurred_at: fact.occurred_at },
      contact: contactSnapshot(row),
    };
    emitRunInput(
      at.context,
      this.requestsTopic,
      record,
      RUN_INPUT_TYPES.event,
      String(fact.contact_id),
      input,
    );
  }
}

export const CONTACT_VIEW = new ContactView(ContactEntity, {
  alsoReads: [EVENT_FACT_TYPES.recorded],
  // An event's contact is read with the run, so its input carries the stored row.
  contactOf: (record: DecodedRecord) =>
    record.type === EVENT_FACT_TYPES.recorded ? (record.data as EventRecordedV1).contact_id : undefined,
  begin: (config) => new AutomationsViewRun((config as AutomationsConfig).topics.requests),
});

export const CONTACT_VIEW_CONSUMER = contactViewConsumer(
  CONTACT_VIEW,
  CONTACTS_TRANSPORT,
  AUTOMATIONS_CONFIG,
);
