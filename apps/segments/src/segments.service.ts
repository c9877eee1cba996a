import { SEGMENTS_RECORD_TYPES, OUTCOME_RECORD_TYPES } from '@cms/contracts';
import type { ServiceDefinition } from '@cms/service-kit';

import { SegmentsInit1795800000000 } from '../migrations/1795800000000-segments-init.migration';
import { SegmentsRequestsConsumer } from './segments-requests.consumer';
import { AudiencesModule } from './audiences/audiences.module';
import { AudienceEntity, AudienceMemberEntity } from './audiences/audience.entity';
import {
  ContactEntity,
  ContactEventEntity,
  SuppressionEntity,
  WorkspaceRevisionEntity,
} from './contacts/contact.entity';
import { ImportJobChunkEntity, ImportJobEntity } from './imports/import-job.entity';
import { SEGMENTS_CONFIG, DEFAULT_SCHEMA, loadConfig, SOURCE, type SegmentsConfig } from './config';

/** The tables the log rebuilds: a replay must reproduce each of them row for row. */
export const PROJECTION_ENTITIES = [
  AudienceEntity,
  AudienceMemberEntity,
  ContactEntity,
  ContactEventEntity,
  SuppressionEntity,
  WorkspaceRevisionEntity,
  ImportJobEntity,
  ImportJobChunkEntity,
];

/** The segments service: its audiences, decided from the requests topic. */
export const SEGMENTS_SERVICE: ServiceDefinition<SegmentsConfig> = {
  name: 'segments',
  defaultSchema: DEFAULT_SCHEMA,
  source: SOURCE,
  configToken: SEGMENTS_CONFIG,
  loadConfig,
  projection: PROJECTION_ENTITIES,
  migrations: [SegmentsInit1795800000000],
  recordTypes: () => [...SEGMENTS_RECORD_TYPES, ...OUTCOME_RECORD_TYPES],
  consumers: [
    {
      suffix: '',
      component: 'requests-consumer',
      topics: (config) => [config.topics.requests],
      answersRequests: true,
      // Most of what it reads is other services' requests; its own can wait 20 ms.
      gatherFetch: true,
    },
  ],
  modules: () => [AudiencesModule],
  controllers: [SegmentsRequestsConsumer],
};
