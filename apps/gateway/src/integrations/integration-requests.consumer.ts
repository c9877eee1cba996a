import { INTEGRATION_REQUEST_TYPES, type RequestRecord } from '@cms/contracts';
import { DecidesRequest } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';

import { RequestDecider } from '../decisions/request-decider';
import { createIntegration } from './create-integration';

/**
 * Decides the integration requests from the ordered log, from the record and the gateway's own tables
 * only, so replaying the log rebuilds the same rows.
 */
@Controller()
export class IntegrationRequestsConsumer {
  constructor(@Inject(RequestDecider) private readonly decider: RequestDecider) {}

  @DecidesRequest(INTEGRATION_REQUEST_TYPES.create)
  createIntegration(
    @Payload() record: RequestRecord<typeof INTEGRATION_REQUEST_TYPES.create>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, createIntegration);
  }
}
