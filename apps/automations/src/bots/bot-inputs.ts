import {
  BOT_INPUT_TYPES,
  type BotAnswerRecordedV1,
  type BotAudienceRecordedV1,
  type BotInboundRecordedV1,
  type BotTimerFiredV1,
  type DecodedRecord,
} from '@cms/contracts';
import { answerRequest, recordContext, type Answer, type DecisionTopics } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import { AUTOMATIONS_CONFIG, SOURCE, type AutomationsConfig } from '../config';
import { RunInputDecision } from '../runs/run-inputs.chunk';
import { ConversationDecisions, type BotRecordPlace } from './conversation-decisions';

/** What moves conversations, appended by the service itself; nobody waits for them. */
export const BOT_INPUTS: readonly string[] = [
  BOT_INPUT_TYPES.inbound,
  BOT_INPUT_TYPES.timer,
  BOT_INPUT_TYPES.audience,
  BOT_INPUT_TYPES.answer,
];

/** Decides a bot input read from the requests topic, in the workspace's order. */
@Injectable()
export class BotInputs {
  private readonly topics: DecisionTopics;

  constructor(
    @Inject(AUTOMATIONS_CONFIG) config: AutomationsConfig,
    @Inject(ConversationDecisions) private readonly conversations: ConversationDecisions,
  ) {
    this.topics = { facts: config.topics.automations, requests: config.topics.requests };
  }

  apply(record: DecodedRecord, rawContext: unknown): Promise<void> {
    const context = recordContext(rawContext);
    const place: BotRecordPlace = { partition: context.partition, replaying: context.replaying };
    const decision = new RunInputDecision(record, context.manager, SOURCE, !context.replaying);
    return answerRequest(decision, context, this.topics, (moving) => this.decide(moving, place));
  }

  private decide(decision: RunInputDecision<unknown>, place: BotRecordPlace): Promise<Answer> {
    switch (decision.record.type) {
      case BOT_INPUT_TYPES.inbound:
        return this.conversations.inbound(decision as RunInputDecision<BotInboundRecordedV1>, place);
      case BOT_INPUT_TYPES.timer:
        return this.conversations.timer(decision as RunInputDecision<BotTimerFiredV1>, place);
      case BOT_INPUT_TYPES.audience:
        return this.conversations.audience(decision as RunInputDecision<BotAudienceRecordedV1>, place);
      default:
        return this.conversations.answer(decision as RunInputDecision<BotAnswerRecordedV1>, place);
    }
  }
}
