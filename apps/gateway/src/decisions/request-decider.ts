import { type RequestPayloads, type RequestRecord, type RequestType } from '@cms/contracts';
import { decideRequest, type Answer, type Decision } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';

/** The `source` of the gateway's records: its requests, facts and outcomes. */
export const SOURCE = 'gateway';

/**
 * The one way the gateway decides a request record of its own: a Decision of the record in the
 * consumer's transaction, answered by the shared frame as the gateway, facts on cms.gateway.v1.
 */
@Injectable()
export class RequestDecider {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  decide<T extends RequestType>(
    record: RequestRecord<T>,
    rawContext: unknown,
    handler: (decision: Decision<RequestPayloads[T]>) => Promise<Answer>,
  ): Promise<void> {
    return decideRequest(
      record,
      rawContext,
      SOURCE,
      { facts: this.config.topics.gateway, outcomes: this.config.topics.outcomes },
      handler,
    );
  }
}
