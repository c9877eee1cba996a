import { decideRequest, recordContext, type Answer, type Decision } from '@cms/kafka';
import { type DecodedRecord } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import { WEBHOOK_DISPATCH_CONFIG, type WebhookDispatchConfig } from '../config';
import { SOURCE } from './decision';

/** Decides request records with the shared frame, answering as webhook-dispatch and publishing on its fact topic. */
@Injectable()
export class RequestDecider {
  constructor(@Inject(WEBHOOK_DISPATCH_CONFIG) private readonly config: WebhookDispatchConfig) {}

  /**
   * `replaying` tells the handler the record is below the replay horizon: an earlier life of the schema
   * already made its side effects (deliveries, redeliveries, failure counts), so it must not again.
   */
  decide<T>(
    record: DecodedRecord<T>,
    rawContext: unknown,
    handler: (decision: Decision<T>, replaying: boolean) => Promise<Answer>,
  ): Promise<void> {
    const { replaying } = recordContext(rawContext);
    return decideRequest(
      record,
      rawContext,
      SOURCE,
      { facts: this.config.topics.webhooks, outcomes: this.config.topics.outcomes },
      (decision) => handler(decision, replaying),
    );
  }
}
