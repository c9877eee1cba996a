import {
  AUTOMATIONS_RECORD_TYPES,
  BOT_RECORD_TYPES,
  OUTCOME_RECORD_TYPES,
  RUN_RECORD_TYPES,
} from '@cms/contracts';
import type { ServiceDefinition } from '@cms/service-kit';

import { AutomationsInit1795838825093 } from '../migrations/1795838825093-automations-init.migration';
import { AutomationsRuns1795900000000 } from '../migrations/1795900000000-automations-runs.migration';
import { AutomationsBots1796000000000 } from '../migrations/1796000000000-automations-bots.migration';
import { AutomationsTimerContact1796100000000 } from '../migrations/1796100000000-automations-timer-contact.migration';
import { AutomationsRequestsConsumer } from './automations-requests.consumer';
import {
  BotAudienceWalkEntity,
  BotConversationEntity,
  BotEntity,
  BotModelCallEntity,
  BotTimerEntity,
  ConversationIdCounterEntity,
} from './bots/bot.entity';
import { AudienceWalkWorker } from './bots/audience-walk.worker';
import { BotTimerWorker } from './bots/bot-timer.worker';
import { ModelAnswerWorker } from './bots/model-answer.worker';
import { CONTACT_VIEW, CONTACT_VIEW_CONSUMER } from './contacts/contact-view';
import { ContactEntity } from './contacts/contact.entity';
import { MESSAGE_FACT_RECORD_TYPES, MessageFactsChunk, MessageFactsModule } from './messages/message-facts';
import {
  OutcomeEntity,
  RunContactEventEntity,
  RunIdCounterEntity,
  RunMessageEntity,
  RunTimerEntity,
  WorkflowRunEntity,
} from './runs/run.entity';
import { RunInputsChunk } from './runs/run-inputs.chunk';
import { RunTimerWorker } from './runs/run-timer.worker';
import { BotsModule } from './bots/bots.module';
import { RunsModule } from './runs/runs.module';
import { WorkflowsModule } from './workflows/workflows.module';
import { WorkflowEntity, WorkflowVersionEntity } from './workflows/workflow.entity';
import { AUTOMATIONS_CONFIG, DEFAULT_SCHEMA, loadConfig, SOURCE, type AutomationsConfig } from './config';
import { CONTACTS_TRANSPORT, MESSAGING_TRANSPORT, REQUESTS_TRANSPORT } from './transports';

/** The tables the log rebuilds: a replay must reproduce each of them row for row. */
export const PROJECTION_ENTITIES = [
  WorkflowEntity,
  WorkflowVersionEntity,
  WorkflowRunEntity,
  RunMessageEntity,
  RunContactEventEntity,
  RunIdCounterEntity,
  OutcomeEntity,
  ContactEntity,
  BotEntity,
  BotConversationEntity,
  ConversationIdCounterEntity,
];

/**
 * The automations service: workflows and bots decided from the requests topic, and their runs and
 * conversations, moved by the
 * inputs it appends to that topic itself (events and message facts it reads, timers that fall due),
 * so that one ordered log decides every run live and on replay.
 */
export const AUTOMATIONS_SERVICE: ServiceDefinition<AutomationsConfig> = {
  name: 'automations',
  defaultSchema: DEFAULT_SCHEMA,
  source: SOURCE,
  configToken: AUTOMATIONS_CONFIG,
  loadConfig,
  projection: PROJECTION_ENTITIES,
  // Timers: a rebuild keeps them, a blue/green switch carries them over.
  jobs: [RunTimerEntity, BotTimerEntity, BotModelCallEntity, BotAudienceWalkEntity],
  migrations: [
    AutomationsInit1795838825093,
    AutomationsRuns1795900000000,
    AutomationsBots1796000000000,
    AutomationsTimerContact1796100000000,
  ],
  recordTypes: () => [
    ...AUTOMATIONS_RECORD_TYPES,
    ...RUN_RECORD_TYPES,
    ...BOT_RECORD_TYPES,
    ...OUTCOME_RECORD_TYPES,
    ...CONTACT_VIEW.recordTypes,
    ...MESSAGE_FACT_RECORD_TYPES,
  ],
  consumers: [
    {
      suffix: '',
      component: 'requests-consumer',
      topics: (config) => [config.topics.requests],
      transportId: REQUESTS_TRANSPORT,
      answersRequests: true,
      // Run inputs in a row are decided over one book of their rows.
      chunk: RunInputsChunk,
      // Most of what it reads is other services' requests; its own can wait 20 ms.
      gatherFetch: true,
    },
    {
      suffix: '.contacts',
      component: 'contacts-consumer',
      topics: (config) => [config.topics.contacts],
      transportId: CONTACTS_TRANSPORT,
      chunk: CONTACT_VIEW_CONSUMER.chunk,
      gatherFetch: true,
    },
    {
      suffix: '.messaging',
      component: 'messaging-consumer',
      topics: (config) => [config.topics.messaging],
      transportId: MESSAGING_TRANSPORT,
      // Most message facts are of no workflow: a run of them is read in one transaction.
      chunk: MessageFactsChunk,
      gatherFetch: true,
    },
  ],
  modules: () => [CONTACT_VIEW_CONSUMER.module, MessageFactsModule, BotsModule, RunsModule, WorkflowsModule],
  controllers: [AutomationsRequestsConsumer],
  workers: [
    { component: 'timer-worker', worker: RunTimerWorker },
    { component: 'bot-timer-worker', worker: BotTimerWorker },
    { component: 'audience-worker', worker: AudienceWalkWorker },
    { component: 'model-worker', worker: ModelAnswerWorker },
  ],
};
