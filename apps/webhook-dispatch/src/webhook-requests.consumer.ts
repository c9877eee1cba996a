import { WEBHOOK_REQUEST_TYPES, type DecodedRecord, type RequestRecord } from '@cms/contracts';
import { DecidesRequest, handlerFor, type RequestHandlers } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import type { WebhooksDecision } from './decisions/decision';
import { RequestDecider } from './decisions/request-decider';
import { RedeliverHandler } from './deliveries/redeliver/redeliver.handler';
import { SendTestHandler } from './deliveries/send-test/send-test.handler';
import { CreateEndpointHandler } from './endpoints/create-endpoint/create-endpoint.handler';
import { DeleteEndpointHandler } from './endpoints/delete-endpoint/delete-endpoint.handler';
import { RollSecretHandler } from './endpoints/roll-secret/roll-secret.handler';
import { SwitchOffEndpointHandler } from './endpoints/switch-off-endpoint/switch-off-endpoint.handler';
import { UpdateEndpointHandler } from './endpoints/update-endpoint/update-endpoint.handler';
import { REQUESTS_TRANSPORT } from './transports';

/** The requests a client sends and waits for: each is answered on the outcome topic. */
const ANSWERED_TYPES = [
  WEBHOOK_REQUEST_TYPES.endpointCreate,
  WEBHOOK_REQUEST_TYPES.endpointUpdate,
  WEBHOOK_REQUEST_TYPES.endpointDelete,
  WEBHOOK_REQUEST_TYPES.endpointRollSecret,
  WEBHOOK_REQUEST_TYPES.endpointTest,
  WEBHOOK_REQUEST_TYPES.deliveryRedeliver,
] as const;

type AnsweredType = (typeof ANSWERED_TYPES)[number];

/** Hands each webhook request record to its use case; the decider answers it on the outcome topic. */
@Controller()
export class WebhookRequestsConsumer {
  /** One use case per answered type: a type without one, or with one for another payload, does not compile. */
  private readonly handlers: RequestHandlers<AnsweredType, WebhooksDecision>;

  constructor(
    @Inject(RequestDecider) private readonly decider: RequestDecider,
    @Inject(CreateEndpointHandler) create: CreateEndpointHandler,
    @Inject(UpdateEndpointHandler) update: UpdateEndpointHandler,
    @Inject(DeleteEndpointHandler) remove: DeleteEndpointHandler,
    @Inject(RollSecretHandler) rollSecret: RollSecretHandler,
    @Inject(SendTestHandler) sendTest: SendTestHandler,
    @Inject(RedeliverHandler) redeliver: RedeliverHandler,
    @Inject(SwitchOffEndpointHandler) private readonly switchOff: SwitchOffEndpointHandler,
  ) {
    this.handlers = {
      [WEBHOOK_REQUEST_TYPES.endpointCreate]: (decision) => create.handle(decision),
      [WEBHOOK_REQUEST_TYPES.endpointUpdate]: (decision) => update.handle(decision),
      [WEBHOOK_REQUEST_TYPES.endpointDelete]: (decision) => remove.handle(decision),
      [WEBHOOK_REQUEST_TYPES.endpointRollSecret]: (decision) => rollSecret.handle(decision),
      [WEBHOOK_REQUEST_TYPES.endpointTest]: (decision) => sendTest.handle(decision),
      [WEBHOOK_REQUEST_TYPES.deliveryRedeliver]: (decision) => redeliver.handle(decision),
    };
  }

  @EventPattern(ANSWERED_TYPES, REQUESTS_TRANSPORT)
  answer(@Payload() record: DecodedRecord, @Ctx() context: unknown): Promise<void> {
    // Bound to exactly the types of the map.
    return this.decider.decide(record, context, handlerFor(this.handlers, record.type)!);
  }

  /** From the delivery worker, not a client: no outcome. */
  @DecidesRequest(WEBHOOK_REQUEST_TYPES.endpointSwitchOff, REQUESTS_TRANSPORT)
  switchOffEndpoint(
    @Payload() record: RequestRecord<typeof WEBHOOK_REQUEST_TYPES.endpointSwitchOff>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decideUnanswered(record, context, (decision) => this.switchOff.handle(decision));
  }
}
