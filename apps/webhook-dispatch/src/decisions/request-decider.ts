import { acceptedOutcome, rejectedOutcome, type DecodedRecord } from '@cms/contracts';
import { recordContext } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import { WEBHOOK_DISPATCH_CONFIG, type WebhookDispatchConfig } from '../config';
import { Decision, SOURCE, type Answer } from './decision';
import { WebhooksException } from './webhooks.exception';

/**
 * The frame around every use case: decides one request record inside the consumer's transaction,
 * publishes the facts of an accepted decision, and answers the request with exactly one outcome.
 */
@Injectable()
export class RequestDecider {
  constructor(@Inject(WEBHOOK_DISPATCH_CONFIG) private readonly config: WebhookDispatchConfig) {}

  async decide<T>(
    record: DecodedRecord<T>,
    rawContext: unknown,
    handler: (decision: Decision<T>) => Promise<Answer>,
  ): Promise<void> {
    const context = recordContext(rawContext);
    const decision = new Decision(record, context.manager);
    const answer = await decision.attempt(() => handler(decision));
    if (answer instanceof WebhooksException) {
      context.emit(
        this.config.topics.outcomes,
        rejectedOutcome(record, SOURCE, answer.status, answer.toErrors()),
      );
      return;
    }
    for (const fact of decision.publishedFacts) context.emit(this.config.topics.webhooks, fact);
    context.emit(
      this.config.topics.outcomes,
      acceptedOutcome(record, SOURCE, answer.status, answer.resource),
    );
  }
}
