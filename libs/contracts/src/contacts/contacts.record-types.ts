import {
  ContactImportRowsDecidedV1,
  ContactImportRowsRefusedV1,
  IMPORT_ROWS_FACT_TYPE,
  IMPORT_ROWS_REFUSED_FACT_TYPE,
  IMPORT_ROWS_REQUEST_SCHEMAS,
} from './import-rows.records';
import { INBOUND_SENDER_REQUEST_SCHEMAS } from './inbound-sender.records';
import type { RecordTypeDefinition } from '../registry/record-type-registry';
import { firstVersions, type PayloadsOf } from '../requests/request-schemas';
import {
  CONTACT_FACT_TYPES,
  CONTACT_REQUEST_TYPES,
  ContactBatchUpsertRequestedV1,
  ContactChannelLinkedV1,
  ContactChannelLinkRequestedV1,
  ContactConsentChangeRequestedV1,
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
  contactConsentChange: CONTACT_REQUEST_TYPES.consentChange,
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
  importRowsDecided: IMPORT_ROWS_FACT_TYPE,
  importRowsRefused: IMPORT_ROWS_REFUSED_FACT_TYPE,
  consentGranted: CONSENT_FACT_TYPES.granted,
  consentRevoked: CONSENT_FACT_TYPES.revoked,
} as const;

/** The payload class of every request the contacts service decides. */
export const CONTACTS_REQUEST_SCHEMAS = {
  [CONTACT_REQUEST_TYPES.upsert]: ContactUpsertRequestedV1,
  [CONTACT_REQUEST_TYPES.batchUpsert]: ContactBatchUpsertRequestedV1,
  [CONTACT_REQUEST_TYPES.update]: ContactUpdateRequestedV1,
  [CONTACT_REQUEST_TYPES.channelLink]: ContactChannelLinkRequestedV1,
  [CONTACT_REQUEST_TYPES.ingest]: ContactIngestRequestedV1,
  [CONTACT_REQUEST_TYPES.consentChange]: ContactConsentChangeRequestedV1,
  [TAG_REQUEST_TYPES.create]: TagCreateRequestedV1,
  [TAG_REQUEST_TYPES.update]: TagUpdateRequestedV1,
  [TAG_REQUEST_TYPES.delete]: TagDeleteRequestedV1,
  [TAG_REQUEST_TYPES.sync]: TagAssignmentRequestedV1,
  [TAG_REQUEST_TYPES.attach]: TagAssignmentRequestedV1,
  [TAG_REQUEST_TYPES.detach]: TagAssignmentRequestedV1,
  [EVENT_REQUEST_TYPES.record]: EventRecordRequestedV1,
  ...INBOUND_SENDER_REQUEST_SCHEMAS,
  ...IMPORT_ROWS_REQUEST_SCHEMAS,
} as const;

export type ContactsRequestPayloads = PayloadsOf<typeof CONTACTS_REQUEST_SCHEMAS>;

export const CONTACTS_RECORD_TYPES: RecordTypeDefinition[] = [
  ...firstVersions(CONTACTS_REQUEST_SCHEMAS),
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
  { type: IMPORT_ROWS_FACT_TYPE, version: 1, schema: ContactImportRowsDecidedV1 },
  { type: IMPORT_ROWS_REFUSED_FACT_TYPE, version: 1, schema: ContactImportRowsRefusedV1 },
];
