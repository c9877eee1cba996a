import {
  ALERT_RECORD_TYPES,
  GATEWAY_RECORD_TYPES,
  GATEWAY_REQUEST_TYPES,
  MESSAGING_RECORD_TYPES,
  OUTCOME_RECORD_TYPES,
} from '@cms/contracts';
import type { ServiceDefinition } from '@cms/service-kit';

import { MessagingInit1795551847908 } from '../migrations/1795551847908-messaging-init.migration';
import { MessagingEarlyStatuses1795600000000 } from '../migrations/1795600000000-messaging-early-statuses.migration';
import { MessagingAlerts1795600000018 } from '../migrations/1795600000018-messaging-alerts.migration';
import {
  AlertEntity,
  AlertOutcomeBucketEntity,
  AlertRuleEntity,
  AlertWorkspaceEntity,
} from './alerts/alert.entity';
import { AlertsModule } from './alerts/alerts.module';
import { MessagingLinks1795700000000 } from '../migrations/1795700000000-messaging-links.migration';
import { MessagingTestMessages1795900000000 } from '../migrations/1795900000000-messaging-test-messages.migration';
import { MessagingBotMessages1796000000000 } from '../migrations/1796000000000-messaging-bot-messages.migration';
import { MessagingInboundKeywords1796000000100 } from '../migrations/1796000000100-messaging-inbound-keywords.migration';
import { MessagingBulkLane1795900000100 } from '../migrations/1795900000100-messaging-bulk-lane.migration';
import { CallbacksModule } from './callbacks/callbacks.module';
import { ChannelEntity, PushSubscriptionEntity } from './channels/channel.entity';
import { ChannelsModule } from './channels/channels.module';
import { DEFAULT_SCHEMA, loadConfig, MESSAGING_CONFIG, SOURCE, type MessagingConfig } from './config';
import { CONTACT_VIEW, CONTACT_VIEW_CONSUMER } from './contacts/contact-view';
import { ContactEntity } from './contacts/contact.entity';
import { MessageLinkEntity } from './links/message-link.entity';
import { LinksModule } from './links/links.module';
import { MessagesChunk } from './messages/chunk/messages-chunk';
import { EarlyStatusEntity, MessageEntity, SuppressionEntity } from './messages/message.entity';
import { MessagesModule } from './messages/messages.module';
import { MessagingRequestsConsumer } from './messaging-requests.consumer';
import { SendJobEntity, TimerEntity } from './sending/send-job.entity';
import { SendWorker } from './sending/send.worker';
import { SendingModule } from './sending/sending.module';
import { TimerWorker } from './sending/timer.worker';
import { TemplateEntity } from './templates/template.entity';
import { SuppressionsModule } from './suppressions/suppressions.module';
import { TemplatesModule } from './templates/templates.module';
import { CONTACTS_TRANSPORT, REQUESTS_TRANSPORT } from './transports';

/** The largest body the internal port takes: a 1 MiB callback, base64-encoded, with room for its headers. */
export const MESSAGING_INTERNAL_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

/** The tables the log rebuilds: a replay must reproduce each of them row for row. */
export const PROJECTION_ENTITIES = [
  ChannelEntity,
  PushSubscriptionEntity,
  TemplateEntity,
  ContactEntity,
  MessageEntity,
  SuppressionEntity,
  EarlyStatusEntity,
  AlertRuleEntity,
  AlertWorkspaceEntity,
  AlertEntity,
  AlertOutcomeBucketEntity,
  MessageLinkEntity,
];

/** The messaging service: channels, templates and messages, decided from the requests topic. */
export const MESSAGING_SERVICE: ServiceDefinition<MessagingConfig> = {
  name: 'messaging',
  defaultSchema: DEFAULT_SCHEMA,
  source: SOURCE,
  configToken: MESSAGING_CONFIG,
  loadConfig,
  projection: PROJECTION_ENTITIES,
  // Send jobs and timers: a rebuild keeps them, a blue/green switch carries them over.
  jobs: [SendJobEntity, TimerEntity],
  migrations: [
    MessagingInit1795551847908,
    MessagingEarlyStatuses1795600000000,
    MessagingAlerts1795600000018,
    MessagingLinks1795700000000,
    MessagingTestMessages1795900000000,
    MessagingBulkLane1795900000100,
    MessagingBotMessages1796000000000,
    MessagingInboundKeywords1796000000100,
  ],
  // Its requests, and the contact facts its contact view is made of.
  recordTypes: () => [
    ...MESSAGING_RECORD_TYPES,
    ...OUTCOME_RECORD_TYPES,
    ...CONTACT_VIEW.recordTypes,
    ...ALERT_RECORD_TYPES,
    // A new workspace's default alert rule is made when its creation comes by.
    ...GATEWAY_RECORD_TYPES.filter((definition) => definition.type === GATEWAY_REQUEST_TYPES.workspaceCreate),
  ],
  consumers: [
    {
      suffix: '',
      component: 'requests-consumer',
      topics: (config) => [config.topics.requests],
      transportId: REQUESTS_TRANSPORT,
      answersRequests: true,
      // A message's requests in a row (sends, attempts, receipts) are decided with a few statements.
      chunk: MessagesChunk,
      // Most of what it reads is other services' requests; its own can wait 20 ms.
      gatherFetch: true,
    },
    {
      suffix: '.contacts',
      component: 'contacts-consumer',
      topics: (config) => [config.topics.contacts],
      transportId: CONTACTS_TRANSPORT,
      // Snapshots and links of a chunk are written with a statement or two, not one each.
      chunk: CONTACT_VIEW_CONSUMER.chunk,
      // Tags and events pass by unread; the view 20 ms later is no later for a send.
      gatherFetch: true,
    },
  ],
  modules: () => [
    CONTACT_VIEW_CONSUMER.module,
    ChannelsModule,
    TemplatesModule,
    MessagesModule,
    SendingModule,
    CallbacksModule,
    AlertsModule,
    SuppressionsModule,
    LinksModule,
  ],
  controllers: [MessagingRequestsConsumer],
  // Only the gateway calls this port. A provider's callback may be 1 MiB at the edge, and it comes here
  // base64-encoded (4/3 of it) inside the verification's JSON.
  http: { bodyLimitBytes: MESSAGING_INTERNAL_BODY_LIMIT_BYTES },
  workers: [
    { component: 'send-worker', worker: SendWorker },
    { component: 'timer-worker', worker: TimerWorker },
  ],
};
