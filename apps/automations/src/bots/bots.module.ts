import { workerProvider } from '@cms/service-kit';
import { Module } from '@nestjs/common';

import { AUTOMATIONS_CONFIG, type AutomationsConfig } from '../config';
import { ChatModel } from './ai/chat-model';
import { AudienceMembers } from './audience-members';
import { AudienceWalkWorker } from './audience-walk.worker';
import { BotInputs } from './bot-inputs';
import { BotTimerWorker } from './bot-timer.worker';
import { ConversationDecisions } from './conversation-decisions';
import { ModelAnswerWorker } from './model-answer.worker';
import { BotsController } from './read-bots/bots.controller';
import { WriteBotsHandler } from './write-bots/write-bots.handler';

/** Bots (extensions §12): their writes, conversations, the workers of their timers and model answers, their reads. */
@Module({
  controllers: [BotsController],
  providers: [
    ConversationDecisions,
    WriteBotsHandler,
    BotInputs,
    workerProvider(
      BotTimerWorker,
      AUTOMATIONS_CONFIG,
      'bot-timer-worker',
      (config: AutomationsConfig, settings) =>
        new BotTimerWorker({ ...settings, requestsTopic: config.topics.requests, ...config.timerWorker }),
    ),
    workerProvider(
      AudienceWalkWorker,
      AUTOMATIONS_CONFIG,
      'audience-worker',
      (config: AutomationsConfig, settings) =>
        new AudienceWalkWorker({
          ...settings,
          requestsTopic: config.topics.requests,
          audiences: new AudienceMembers(config.bots.segmentsUrl),
        }),
    ),
    workerProvider(
      ModelAnswerWorker,
      AUTOMATIONS_CONFIG,
      'model-worker',
      (config: AutomationsConfig, settings) =>
        new ModelAnswerWorker({
          ...settings,
          requestsTopic: config.topics.requests,
          model: config.bots.ai === null ? null : new ChatModel(config.bots.ai),
          concurrency: config.bots.modelConcurrency,
          perWorkspace: config.bots.modelCallsPerWorkspace,
          leaseMs: config.bots.modelLeaseMs,
        }),
    ),
  ],
  exports: [
    ConversationDecisions,
    WriteBotsHandler,
    BotInputs,
    BotTimerWorker,
    AudienceWalkWorker,
    ModelAnswerWorker,
  ],
})
export class BotsModule {}
