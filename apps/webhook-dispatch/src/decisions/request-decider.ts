import { decideRequest, type Answer, type Decision } from '@cms/kafka';
import { type DecodedRecord } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import { WEBHOOK_DISPATCH_CONFIG, type WebhookDispatchConfig } from '../config';
import { SOURCE } from './decision';

/** Decides request records with the shared frame, answering as webhook-dispatch and publishing on its fact topic. */
@Injectable()
export class RequestDecider {
  constructor(@Inject(WEBHOOK_DISPATCH_CONFIG) private readonly config: WebhookDispatchConfig) {}

  decide<T>(
    record: DecodedRecord<T>,
    rawContext: unknown,
    handler: (decision: Decision<T>) => Promise<Answer>,
  ): Promise<void> {
    return decideRequest(
      record,
      rawContext,
      SOURCE,
      { facts: this.config.topics.webhooks, outcomes: this.config.topics.outcomes },
      handler,
    );
  }
}
