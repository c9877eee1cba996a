import {
  BROADCASTS_RECORD_TYPES,
  OUTCOME_RECORD_TYPES,
  SEGMENTS_RECORD_TYPES,
  selectRecordTypes,
} from '@cms/contracts';
import type { ServiceDefinition } from '@cms/service-kit';

import { BroadcastsInit1795870270861 } from '../migrations/1795870270861-broadcasts-init.migration';
import { BroadcastsRequestsConsumer } from './broadcasts-requests.consumer';
import { NotificationsModule } from './notifications/notifications.module';
import { NotificationEntity, ScheduleTimerEntity } from './notifications/notification.entity';
import { MESSAGE_FACT_RECORD_TYPES, SendMessageFacts, SendMessageFactsModule } from './sends/message-facts';
import {
  SendCountsEntity,
  SendEntity,
  SendFanoutEntity,
  SendIdCounterEntity,
  SendMemberEntity,
  SendMessageEntity,
} from './sends/send.entity';
import { SNAPSHOT_FACT_RECORD_TYPES, SnapshotFacts, SnapshotFactsModule } from './sends/snapshot-facts';
import { FanoutWorker } from './workers/fanout.worker';
import { ScheduleTimerWorker } from './workers/schedule-timer.worker';
import { BROADCASTS_CONFIG, DEFAULT_SCHEMA, loadConfig, SOURCE, type BroadcastsConfig } from './config';
import { MESSAGING_TRANSPORT, REQUESTS_TRANSPORT, SEGMENTS_TRANSPORT } from './transports';

/** The tables the log rebuilds: a replay must reproduce each of them row for row. */
export const PROJECTION_ENTITIES = [
  NotificationEntity,
  SendEntity,
  SendCountsEntity,
  SendMemberEntity,
  SendMessageEntity,
  SendIdCounterEntity,
];

/** The snapshot request it appends for segments is read back by nobody here, but it is validated when made. */
const SNAPSHOT_REQUEST = selectRecordTypes(
  ['audience.snapshot.requested'],
  SEGMENTS_RECORD_TYPES,
).definitions;

/**
 * The broadcasts service (extensions §13): notifications and their sends decided from the requests
 * topic; each send's audience taken once by segments into the log, its messages asked of messaging's
 * decision path by the fan-out worker at the send's pace, and its counts moved by their facts.
 */
export const BROADCASTS_SERVICE: ServiceDefinition<BroadcastsConfig> = {
  name: 'broadcasts',
  defaultSchema: DEFAULT_SCHEMA,
  source: SOURCE,
  configToken: BROADCASTS_CONFIG,
  loadConfig,
  projection: PROJECTION_ENTITIES,
  // Fan-outs and schedule timers: a rebuild keeps them, so it asks for no message and starts no send again.
  jobs: [SendFanoutEntity, ScheduleTimerEntity],
  migrations: [BroadcastsInit1795870270861],
  recordTypes: () => [
    ...BROADCASTS_RECORD_TYPES,
    ...OUTCOME_RECORD_TYPES,
    ...SNAPSHOT_REQUEST,
    ...SNAPSHOT_FACT_RECORD_TYPES,
    ...MESSAGE_FACT_RECORD_TYPES,
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
      suffix: '.segments',
      component: 'segments-consumer',
      topics: (config) => [config.topics.segments],
      transportId: SEGMENTS_TRANSPORT,
      chunk: SnapshotFacts,
      gatherFetch: true,
    },
    {
      suffix: '.messaging',
      component: 'messaging-consumer',
      topics: (config) => [config.topics.messaging],
      transportId: MESSAGING_TRANSPORT,
      // Most message facts are of no send: a run of them is read in one transaction.
      chunk: SendMessageFacts,
      gatherFetch: true,
    },
  ],
  modules: () => [NotificationsModule, SnapshotFactsModule, SendMessageFactsModule],
  controllers: [BroadcastsRequestsConsumer],
  workers: [
    { component: 'fanout-worker', worker: FanoutWorker },
    { component: 'schedule-worker', worker: ScheduleTimerWorker },
  ],
};
