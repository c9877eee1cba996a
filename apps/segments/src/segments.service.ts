import {
  CONTACTS_RECORD_TYPES,
  IMPORT_ROWS_FACT_TYPE,
  IMPORT_ROWS_REFUSED_FACT_TYPE,
  SEGMENTS_RECORD_TYPES,
  OUTCOME_RECORD_TYPES,
} from '@cms/contracts';
import { acceptStreamedBody } from '@cms/http';
import type { ServiceDefinition } from '@cms/service-kit';

import { SegmentsInit1795800000000 } from '../migrations/1795800000000-segments-init.migration';
import { SegmentsImportChunks1795800000100 } from '../migrations/1795800000100-segments-import-chunks.migration';
import { SegmentsRefusedChunks1795800000200 } from '../migrations/1795800000200-segments-refused-chunks.migration';
import { SegmentsUploadBytes1795800000300 } from '../migrations/1795800000300-segments-upload-bytes.migration';
import { SegmentsAudienceSnapshots1795800000400 } from '../migrations/1795800000400-segments-audience-snapshots.migration';
import { SegmentsRequestsConsumer } from './segments-requests.consumer';
import { AudiencesModule } from './audiences/audiences.module';
import { AudienceEntity, AudienceMemberEntity } from './audiences/audience.entity';
import { AudienceSnapshotEntity } from './audiences/snapshot-audience/audience-snapshot.entity';
import {
  ContactEntity,
  ContactEventEntity,
  SuppressionEntity,
  TagEntity,
  WorkspaceRevisionEntity,
} from './contacts/contact.entity';
import { CONTACT_VIEW, CONTACT_VIEW_CONSUMER } from './contacts/contact-view';
import { SUPPRESSION_VIEW_RECORD_TYPES } from './contacts/suppression-projection';
import { SuppressionViewChunk } from './contacts/view-facts.consumer';
import { ViewModule } from './contacts/view.module';
import { ImportWorker } from './imports/emit-chunks/import.worker';
import { ImportEmissionEntity, ImportJobChunkEntity, ImportJobEntity } from './imports/import-job.entity';
import { ImportsModule } from './imports/imports.module';
import { ExpiredUploadsWorker } from './imports/upload/expired-uploads.worker';
import { ImportUploadEntity, ImportUploadRowEntity } from './imports/upload/import-upload.entity';
import { UPLOAD_MEDIA_TYPE } from './imports/upload/import-uploads.controller';
import { ImportUploadsModule } from './imports/upload/import-uploads.module';
import { IndexWarmer } from './views/index-warmer';
import { CONTACTS_TRANSPORT, MESSAGING_TRANSPORT, REQUESTS_TRANSPORT } from './transports';
import { SEGMENTS_CONFIG, DEFAULT_SCHEMA, loadConfig, SOURCE, type SegmentsConfig } from './config';

/** What the contacts service answers an import's chunks with. */
const IMPORT_DECISION_TYPES = new Set<string>([IMPORT_ROWS_FACT_TYPE, IMPORT_ROWS_REFUSED_FACT_TYPE]);

/** The tables the log rebuilds: a replay must reproduce each of them row for row. */
export const PROJECTION_ENTITIES = [
  AudienceEntity,
  AudienceMemberEntity,
  AudienceSnapshotEntity,
  ContactEntity,
  ContactEventEntity,
  SuppressionEntity,
  TagEntity,
  WorkspaceRevisionEntity,
  ImportJobEntity,
  ImportJobChunkEntity,
];

/**
 * The segments service (extensions §11): audiences decided from the requests topic, evaluated on its
 * own view of contacts (from cms.contacts.v1) and of suppressions (from cms.messaging.v1), and imports.
 */
export const SEGMENTS_SERVICE: ServiceDefinition<SegmentsConfig> = {
  name: 'segments',
  defaultSchema: DEFAULT_SCHEMA,
  source: SOURCE,
  configToken: SEGMENTS_CONFIG,
  loadConfig,
  projection: PROJECTION_ENTITIES,
  // Not derived from the log: a rebuild keeps them, a blue/green switch carries them over. The import
  // worker's progress (no chunk is sent again), and uploads (files clients sent).
  jobs: [ImportEmissionEntity, ImportUploadEntity, ImportUploadRowEntity],
  migrations: [
    SegmentsInit1795800000000,
    SegmentsImportChunks1795800000100,
    SegmentsRefusedChunks1795800000200,
    SegmentsUploadBytes1795800000300,
    SegmentsAudienceSnapshots1795800000400,
  ],
  // Its requests, the contact and suppression facts its view is made of, and the contacts' import decisions.
  recordTypes: () => [
    ...SEGMENTS_RECORD_TYPES,
    ...OUTCOME_RECORD_TYPES,
    ...CONTACT_VIEW.recordTypes,
    ...SUPPRESSION_VIEW_RECORD_TYPES,
    ...CONTACTS_RECORD_TYPES.filter((definition) => IMPORT_DECISION_TYPES.has(definition.type)),
  ],
  consumers: [
    {
      suffix: '',
      component: 'requests-consumer',
      topics: (config) => [config.topics.requests],
      transportId: REQUESTS_TRANSPORT,
      answersRequests: true,
      // Most of what it reads is other services' requests; its own can wait 20 ms.
      gatherFetch: true,
    },
    {
      suffix: '.contacts',
      component: 'contacts-consumer',
      topics: (config) => [config.topics.contacts],
      transportId: CONTACTS_TRANSPORT,
      // A run of contact facts (an import makes a million) is applied with a few statements.
      chunk: CONTACT_VIEW_CONSUMER.chunk,
    },
    {
      suffix: '.messaging',
      component: 'messaging-consumer',
      topics: (config) => [config.topics.messaging],
      transportId: MESSAGING_TRANSPORT,
      chunk: SuppressionViewChunk,
      // Messages' facts pass by unread; suppressions 20 ms later are no later for a preview.
      gatherFetch: true,
    },
  ],
  modules: () => [AudiencesModule, ViewModule, ImportsModule, ImportUploadsModule],
  controllers: [SegmentsRequestsConsumer],
  workers: [
    { component: 'import-worker', worker: ImportWorker },
    { component: 'expired-uploads-worker', worker: ExpiredUploadsWorker },
    { component: 'index-warmer', worker: IndexWarmer },
  ],
  // An upload's file streams in as text/csv, read as it arrives (up to 50 MiB), never by a body parser.
  http: { beforeListen: (app) => acceptStreamedBody(app, UPLOAD_MEDIA_TYPE) },
};
