import type { RecordTypeDefinition } from '../registry/record-type-registry';
import {
  CONTACT_FACT_TYPES,
  CONTACT_REQUEST_TYPES,
  ContactBatchUpsertRequestedV1,
  ContactChannelLinkedV1,
  ContactChannelLinkRequestedV1,
  ContactChannelUnlinkedV1,
  ContactSnapshotV1,
  ContactUpdateRequestedV1,
  ContactUpsertRequestedV1,
} from './contact.records';
import {
  CONSENT_FACT_TYPES,
  ConsentChangedV1,
  EVENT_FACT_TYPES,
  EVENT_REQUEST_TYPES,
  EventRecordedV1,
  EventRecordRequestedV1,
} from './event.records';
import { ContactIngestRequestedV1 } from './inbound.records';
import {
  ContactTagsChangedV1,
  TAG_FACT_TYPES,
  TAG_REQUEST_TYPES,
  TagAssignmentRequestedV1,
  TagCreateRequestedV1,
  TagDeletedV1,
  TagDeleteRequestedV1,
  TagFactV1,
  TagUpdateRequestedV1,
} from './tag.records';

/** Every request the contacts service decides, by type. */
export const CONTACTS_REQUEST_TYPES = {
  contactUpsert: CONTACT_REQUEST_TYPES.upsert,
  contactBatchUpsert: CONTACT_REQUEST_TYPES.batchUpsert,
  contactUpdate: CONTACT_REQUEST_TYPES.update,
  contactChannelLink: CONTACT_REQUEST_TYPES.channelLink,
  contactIngest: CONTACT_REQUEST_TYPES.ingest,
  tagCreate: TAG_REQUEST_TYPES.create,
  tagUpdate: TAG_REQUEST_TYPES.update,
  tagDelete: TAG_REQUEST_TYPES.delete,
  tagSync: TAG_REQUEST_TYPES.sync,
  tagAttach: TAG_REQUEST_TYPES.attach,
  tagDetach: TAG_REQUEST_TYPES.detach,
  eventRecord: EVENT_REQUEST_TYPES.record,
} as const;

/** Every fact the contacts service publishes on cms.contacts.v1. */
export const CONTACTS_FACT_TYPES = {
  contactCreated: CONTACT_FACT_TYPES.created,
  contactUpdated: CONTACT_FACT_TYPES.updated,
  contactChannelLinked: CONTACT_FACT_TYPES.channelLinked,
  contactChannelUnlinked: CONTACT_FACT_TYPES.channelUnlinked,
  contactTagsChanged: TAG_FACT_TYPES.contactTagsChanged,
  tagCreated: TAG_FACT_TYPES.created,
  tagUpdated: TAG_FACT_TYPES.updated,
  tagDeleted: TAG_FACT_TYPES.deleted,
  eventRecorded: EVENT_FACT_TYPES.recorded,
  consentGranted: CONSENT_FACT_TYPES.granted,
  consentRevoked: CONSENT_FACT_TYPES.revoked,
} as const;

export const CONTACTS_RECORD_TYPES: RecordTypeDefinition[] = [
  { type: CONTACT_REQUEST_TYPES.upsert, version: 1, schema: ContactUpsertRequestedV1 },
  { type: CONTACT_REQUEST_TYPES.batchUpsert, version: 1, schema: ContactBatchUpsertRequestedV1 },
  { type: CONTACT_REQUEST_TYPES.update, version: 1, schema: ContactUpdateRequestedV1 },
  { type: CONTACT_REQUEST_TYPES.channelLink, version: 1, schema: ContactChannelLinkRequestedV1 },
  { type: CONTACT_REQUEST_TYPES.ingest, version: 1, schema: ContactIngestRequestedV1 },
  { type: TAG_REQUEST_TYPES.create, version: 1, schema: TagCreateRequestedV1 },
  { type: TAG_REQUEST_TYPES.update, version: 1, schema: TagUpdateRequestedV1 },
  { type: TAG_REQUEST_TYPES.delete, version: 1, schema: TagDeleteRequestedV1 },
  { type: TAG_REQUEST_TYPES.sync, version: 1, schema: TagAssignmentRequestedV1 },
  { type: TAG_REQUEST_TYPES.attach, version: 1, schema: TagAssignmentRequestedV1 },
  { type: TAG_REQUEST_TYPES.detach, version: 1, schema: TagAssignmentRequestedV1 },
  { type: EVENT_REQUEST_TYPES.record, version: 1, schema: EventRecordRequestedV1 },
  { type: CONTACT_FACT_TYPES.created, version: 1, schema: ContactSnapshotV1 },
  { type: CONTACT_FACT_TYPES.updated, version: 1, schema: ContactSnapshotV1 },
  { type: CONTACT_FACT_TYPES.channelLinked, version: 1, schema: ContactChannelLinkedV1 },
  { type: CONTACT_FACT_TYPES.channelUnlinked, version: 1, schema: ContactChannelUnlinkedV1 },
  { type: TAG_FACT_TYPES.created, version: 1, schema: TagFactV1 },
  { type: TAG_FACT_TYPES.updated, version: 1, schema: TagFactV1 },
  { type: TAG_FACT_TYPES.deleted, version: 1, schema: TagDeletedV1 },
  { type: TAG_FACT_TYPES.contactTagsChanged, version: 1, schema: ContactTagsChangedV1 },
  { type: EVENT_FACT_TYPES.recorded, version: 1, schema: EventRecordedV1 },
  { type: CONSENT_FACT_TYPES.granted, version: 1, schema: ConsentChangedV1 },
  { type: CONSENT_FACT_TYPES.revoked, version: 1, schema: ConsentChangedV1 },
];
