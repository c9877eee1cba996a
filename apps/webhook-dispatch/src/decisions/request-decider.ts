import { answerRequest, recordContext, type Answer, type DecisionTopics } from '@cms/kafka';
import { type DecodedRecord } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import { WEBHOOK_DISPATCH_CONFIG, type WebhookDispatchConfig } from '../config';
import { WebhooksDecision } from './decision';

/**
 * The one way webhook-dispatch decides a request record: a WebhooksDecision in the record's
 * transaction, answered by the shared frame as webhook-dispatch, facts on its fact topic.
 */
@Injectable()
export class RequestDecider {
  constructor(@Inject(WEBHOOK_DISPATCH_CONFIG) private readonly config: WebhookDispatchConfig) {}

  /** A client's request: answered on the outcome topic. */
  decide<T>(
    record: DecodedRecord<T>,
    rawContext: unknown,
    handler: (decision: WebhooksDecision<T>) => Promise<Answer>,
  ): Promise<void> {
    const topics = { facts: this.config.topics.webhooks, outcomes: this.config.topics.outcomes };
    return this.run(record, rawContext, topics, handler);
  }

  /** A request the service appended itself (the delivery worker's switch-off): nobody waits for it. */
  decideUnanswered<T>(
    record: DecodedRecord<T>,
    rawContext: unknown,
    handler: (decision: WebhooksDecision<T>) => Promise<Answer>,
  ): Promise<void> {
    return this.run(record, rawContext, { facts: this.config.topics.webhooks }, handler);
  }

  private run<T>(
    record: DecodedRecord<T>,
    rawContext: unknown,
    topics: DecisionTopics,
    handler: (decision: WebhooksDecision<T>) => Promise<Answer>,
  ): Promise<void> {
    const context = recordContext(rawContext);
    const decision = new WebhooksDecision(record, context.manager, context.replaying);
    return answerRequest(decision, context, topics, handler);
  }
}
