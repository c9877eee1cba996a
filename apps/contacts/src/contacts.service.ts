import { CONTACTS_RECORD_TYPES, GATEWAY_RECORD_TYPES, OUTCOME_RECORD_TYPES } from '@cms/contracts';
import type { ServiceDefinition } from '@cms/service-kit';

import { CONTACTS_MIGRATIONS } from '../migrations/1763790000000-contacts-init.migration';
import { ContactsInboundReceipts1763810000000 } from '../migrations/1763810000000-contacts-inbound-receipts.migration';
import { ContactsBigintIds1764000000000 } from '../migrations/1764000000000-contacts-bigint-ids.migration';
import { ContactsUniqueIdentity1764000100000 } from '../migrations/1764000100000-contacts-unique-identity.migration';
import { ContactsImportChunks1795810000000 } from '../migrations/1795810000000-contacts-import-chunks.migration';
import { ContactsChunk } from './chunk/contacts-chunk';
import { CONTACTS_CONFIG, DEFAULT_SCHEMA, loadConfig, type ContactsConfig } from './config';
import { ConsentChangeEntity } from './contacts/consent-change.entity';
import { ContactChannelEntity } from './contacts/contact-channel.entity';
import { ContactEntity } from './contacts/contact.entity';
import { ContactsModule } from './contacts/contacts.module';
import { ImportChunkEntity } from './contacts/import-chunk.entity';
import { refuseImportChunk } from './contacts/import-rows/import-rows-refused';
import { InboundReceiptEntity } from './contacts/inbound-receipt.entity';
import { WorkspaceUsageEntity } from './contacts/workspace-usage.entity';
import { SOURCE } from './decisions/decision';
import { EventEntity } from './events/event.entity';
import { EventsModule } from './events/events.module';
import { PlansModule } from './plans/plans.module';
import { ContactTagEntity } from './tags/contact-tag.entity';
import { TagEntity } from './tags/tag.entity';
import { TagsModule } from './tags/tags.module';

/** The tables the log rebuilds: a replay must reproduce each of them row for row. */
export const PROJECTION_ENTITIES = [
  ContactEntity,
  ContactChannelEntity,
  ConsentChangeEntity,
  WorkspaceUsageEntity,
  TagEntity,
  ContactTagEntity,
  EventEntity,
  InboundReceiptEntity,
  ImportChunkEntity,
];

export const CONTACTS_MIGRATIONS_IN_ORDER = [
  ...CONTACTS_MIGRATIONS,
  ContactsInboundReceipts1763810000000,
  ContactsBigintIds1764000000000,
  ContactsUniqueIdentity1764000100000,
  ContactsImportChunks1795810000000,
];

/** The contacts service: contacts, their tags, events and consent, decided from the requests topic. */
export const CONTACTS_SERVICE: ServiceDefinition<ContactsConfig> = {
  name: 'contacts',
  defaultSchema: DEFAULT_SCHEMA,
  source: SOURCE,
  configToken: CONTACTS_CONFIG,
  loadConfig,
  projection: PROJECTION_ENTITIES,
  migrations: CONTACTS_MIGRATIONS_IN_ORDER,
  // Its own requests and outcomes, and the plan records: the workspace's stored-contacts limit, in log order.
  recordTypes: () => [...CONTACTS_RECORD_TYPES, ...OUTCOME_RECORD_TYPES, ...GATEWAY_RECORD_TYPES],
  consumers: [
    {
      suffix: '',
      component: 'requests-consumer',
      topics: (config) => [config.topics.requests],
      // Event requests and contact writes of a chunk are decided together, live and when rebuilding.
      chunk: ContactsChunk,
      answersRequests: true,
      // An import's chunk that can never be decided fails its job (contact.import-rows.refused).
      onRejected: refuseImportChunk,
      // A rebuild has the machine to itself: one partition's statements run while another's are decided.
      rebuild: { transactionsConcurrently: 2, maxRecordsPerTransaction: 5000 },
    },
  ],
  modules: () => [ContactsModule, TagsModule, EventsModule, PlansModule],
};
