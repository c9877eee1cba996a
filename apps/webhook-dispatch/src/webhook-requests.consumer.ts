import {
  WEBHOOK_REQUEST_TYPES,
  type DecodedRecord,
  type WebhookDeliveryRedeliverRequestedV1,
  type WebhookEndpointCreateRequestedV1,
  type WebhookEndpointDeleteRequestedV1,
  type WebhookEndpointRollSecretRequestedV1,
  type WebhookEndpointSwitchOffRequestedV1,
  type WebhookEndpointTestRequestedV1,
  type WebhookEndpointUpdateRequestedV1,
} from '@cms/contracts';
import { recordContext } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { RequestDecider } from './decisions/request-decider';
import { RedeliverHandler } from './deliveries/redeliver/redeliver.handler';
import { SendTestHandler } from './deliveries/send-test/send-test.handler';
import { CreateEndpointHandler } from './endpoints/create-endpoint/create-endpoint.handler';
import { DeleteEndpointHandler } from './endpoints/delete-endpoint/delete-endpoint.handler';
import { RollSecretHandler } from './endpoints/roll-secret/roll-secret.handler';
import { SwitchOffEndpointHandler } from './endpoints/switch-off-endpoint/switch-off-endpoint.handler';
import { UpdateEndpointHandler } from './endpoints/update-endpoint/update-endpoint.handler';
import { REQUESTS_TRANSPORT } from './transports';

/** Hands each webhook request record to its use case; the decider answers it on the outcome topic. */
@Controller()
export class WebhookRequestsConsumer {
  constructor(
    @Inject(RequestDecider) private readonly decider: RequestDecider,
    @Inject(CreateEndpointHandler) private readonly create: CreateEndpointHandler,
    @Inject(UpdateEndpointHandler) private readonly update: UpdateEndpointHandler,
    @Inject(DeleteEndpointHandler) private readonly remove: DeleteEndpointHandler,
    @Inject(RollSecretHandler) private readonly rollSecret: RollSecretHandler,
    @Inject(SendTestHandler) private readonly sendTest: SendTestHandler,
    @Inject(RedeliverHandler) private readonly redeliver: RedeliverHandler,
    @Inject(SwitchOffEndpointHandler) private readonly switchOff: SwitchOffEndpointHandler,
  ) {}

  @EventPattern(WEBHOOK_REQUEST_TYPES.endpointCreate, REQUESTS_TRANSPORT)
  createEndpoint(
    @Payload() record: DecodedRecord<WebhookEndpointCreateRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.create.handle(decision));
  }

  @EventPattern(WEBHOOK_REQUEST_TYPES.endpointUpdate, REQUESTS_TRANSPORT)
  updateEndpoint(
    @Payload() record: DecodedRecord<WebhookEndpointUpdateRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, (decision, replaying) =>
      this.update.handle(decision, replaying),
    );
  }

  @EventPattern(WEBHOOK_REQUEST_TYPES.endpointDelete, REQUESTS_TRANSPORT)
  deleteEndpoint(
    @Payload() record: DecodedRecord<WebhookEndpointDeleteRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.remove.handle(decision));
  }

  @EventPattern(WEBHOOK_REQUEST_TYPES.endpointRollSecret, REQUESTS_TRANSPORT)
  rollEndpointSecret(
    @Payload() record: DecodedRecord<WebhookEndpointRollSecretRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.rollSecret.handle(decision));
  }

  @EventPattern(WEBHOOK_REQUEST_TYPES.endpointTest, REQUESTS_TRANSPORT)
  testEndpoint(
    @Payload() record: DecodedRecord<WebhookEndpointTestRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, (decision, replaying) =>
      this.sendTest.handle(decision, replaying),
    );
  }

  @EventPattern(WEBHOOK_REQUEST_TYPES.deliveryRedeliver, REQUESTS_TRANSPORT)
  redeliverDelivery(
    @Payload() record: DecodedRecord<WebhookDeliveryRedeliverRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, (decision, replaying) =>
      this.redeliver.handle(decision, replaying),
    );
  }

  /** From the delivery worker, not a client: no outcome. */
  @EventPattern(WEBHOOK_REQUEST_TYPES.endpointSwitchOff, REQUESTS_TRANSPORT)
  switchOffEndpoint(
    @Payload() record: DecodedRecord<WebhookEndpointSwitchOffRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.switchOff.handle(record, recordContext(context));
  }
}
