import { MESSAGING_RECORD_TYPES, OUTCOME_RECORD_TYPES } from '@cms/contracts';
import type { ServiceDefinition } from '@cms/service-kit';

import { MessagingInit1795551847908 } from '../migrations/1795551847908-messaging-init.migration';
import { MessagingRequestsConsumer } from './messaging-requests.consumer';
import { ChannelsModule } from './channels/channels.module';
import { ChannelEntity } from './channels/channel.entity';
import { MESSAGING_CONFIG, DEFAULT_SCHEMA, loadConfig, SOURCE, type MessagingConfig } from './config';

/** The tables the log rebuilds: a replay must reproduce each of them row for row. */
export const PROJECTION_ENTITIES = [ChannelEntity];

/** The messaging service: its channels, decided from the requests topic. */
export const MESSAGING_SERVICE: ServiceDefinition<MessagingConfig> = {
  name: 'messaging',
  defaultSchema: DEFAULT_SCHEMA,
  source: SOURCE,
  configToken: MESSAGING_CONFIG,
  loadConfig,
  projection: PROJECTION_ENTITIES,
  migrations: [MessagingInit1795551847908],
  recordTypes: () => [...MESSAGING_RECORD_TYPES, ...OUTCOME_RECORD_TYPES],
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
  modules: () => [ChannelsModule],
  controllers: [MessagingRequestsConsumer],
};
