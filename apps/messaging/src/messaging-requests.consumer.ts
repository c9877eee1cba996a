import { MESSAGING_REQUEST_TYPES, type DecodedRecord, type RequestRecord } from '@cms/contracts';
import { DecidesRequest, handlerFor, type RequestHandlers } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { RecordCallbackHandler } from './callbacks/record-callback/record-callback.handler';
import { CreateChannelHandler } from './channels/create-channel/create-channel.handler';
import { CreatePushSubscriptionHandler } from './channels/create-push-subscription/create-push-subscription.handler';
import { DeleteChannelHandler } from './channels/delete-channel/delete-channel.handler';
import { UpdateChannelHandler } from './channels/update-channel/update-channel.handler';
import { MESSAGING_CONFIG, type MessagingConfig } from './config';
import { decideMessaging, type MessagingDecision } from './decisions/messaging-decision';
import { CreateTemplateHandler } from './templates/create-template/create-template.handler';
import { DeleteTemplateHandler } from './templates/delete-template/delete-template.handler';
import { UpdateTemplateHandler } from './templates/update-template/update-template.handler';
import { MessageRequests } from './messages/message-requests';
import { SandboxInboundHandler } from './messages/sandbox-inbound/sandbox-inbound.handler';
import { REQUESTS_TRANSPORT } from './transports';

/** The requests a client sends and waits for: each is answered on the outcome topic. */
const ANSWERED_TYPES = [
  MESSAGING_REQUEST_TYPES.channelCreate,
  MESSAGING_REQUEST_TYPES.channelUpdate,
  MESSAGING_REQUEST_TYPES.channelDelete,
  MESSAGING_REQUEST_TYPES.pushSubscriptionCreate,
  MESSAGING_REQUEST_TYPES.sandboxInbound,
  MESSAGING_REQUEST_TYPES.templateCreate,
  MESSAGING_REQUEST_TYPES.templateUpdate,
  MESSAGING_REQUEST_TYPES.templateDelete,
] as const;

type AnsweredType = (typeof ANSWERED_TYPES)[number];

/** Hands each request record to its use case; the shared frame answers it and publishes its facts. */
@Controller()
export class MessagingRequestsConsumer {
  /** One use case per answered type: a type without one, or one for another payload, does not compile. */
  private readonly handlers: RequestHandlers<AnsweredType, MessagingDecision>;

  constructor(
    @Inject(MESSAGING_CONFIG) private readonly config: MessagingConfig,
    @Inject(CreateChannelHandler) createChannel: CreateChannelHandler,
    @Inject(UpdateChannelHandler) updateChannel: UpdateChannelHandler,
    @Inject(DeleteChannelHandler) deleteChannel: DeleteChannelHandler,
    @Inject(CreatePushSubscriptionHandler) createPushSubscription: CreatePushSubscriptionHandler,
    @Inject(CreateTemplateHandler) createTemplate: CreateTemplateHandler,
    @Inject(UpdateTemplateHandler) updateTemplate: UpdateTemplateHandler,
    @Inject(DeleteTemplateHandler) deleteTemplate: DeleteTemplateHandler,
    @Inject(SandboxInboundHandler) sandboxInbound: SandboxInboundHandler,
    @Inject(MessageRequests) private readonly messages: MessageRequests,
    @Inject(RecordCallbackHandler) private readonly callbacks: RecordCallbackHandler,
  ) {
    this.handlers = {
      [MESSAGING_REQUEST_TYPES.channelCreate]: (decision) => createChannel.handle(decision),
      [MESSAGING_REQUEST_TYPES.channelUpdate]: (decision) => updateChannel.handle(decision),
      [MESSAGING_REQUEST_TYPES.channelDelete]: (decision) => deleteChannel.handle(decision),
      [MESSAGING_REQUEST_TYPES.pushSubscriptionCreate]: (decision) => createPushSubscription.handle(decision),
      [MESSAGING_REQUEST_TYPES.templateCreate]: (decision) => createTemplate.handle(decision),
      [MESSAGING_REQUEST_TYPES.templateUpdate]: (decision) => updateTemplate.handle(decision),
      [MESSAGING_REQUEST_TYPES.templateDelete]: (decision) => deleteTemplate.handle(decision),
      [MESSAGING_REQUEST_TYPES.sandboxInbound]: (decision) => sandboxInbound.handle(decision),
    };
  }

  @EventPattern(ANSWERED_TYPES, REQUESTS_TRANSPORT)
  answer(@Payload() record: DecodedRecord, @Ctx() context: unknown): Promise<void> {
    const { messaging: facts, outcomes, requests } = this.config.topics;
    // Bound to exactly the types of the map.
    return decideMessaging(
      record,
      context,
      { facts, outcomes, requests },
      handlerFor(this.handlers, record.type)!,
    );
  }

  /** `POST /api/v1/messages`: answered; a chunk of message requests decides it the same way (MessagesChunk). */
  @DecidesRequest(MESSAGING_REQUEST_TYPES.messageSend, REQUESTS_TRANSPORT)
  send(
    @Payload() record: RequestRecord<typeof MESSAGING_REQUEST_TYPES.messageSend>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.messages.decide(record, context);
  }

  /** From the send worker, not a client: no outcome. */
  @DecidesRequest(MESSAGING_REQUEST_TYPES.messageAttempt, REQUESTS_TRANSPORT)
  recordAttempt(
    @Payload() record: RequestRecord<typeof MESSAGING_REQUEST_TYPES.messageAttempt>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.messages.decide(record, context);
  }

  /** From the timer worker (sandbox receipts) and provider callbacks: no outcome. */
  @DecidesRequest(MESSAGING_REQUEST_TYPES.messageReceipt, REQUESTS_TRANSPORT)
  recordReceipt(
    @Payload() record: RequestRecord<typeof MESSAGING_REQUEST_TYPES.messageReceipt>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.messages.decide(record, context);
  }

  /** From the timer worker: a route step's wait ended. */
  @DecidesRequest(MESSAGING_REQUEST_TYPES.messageTimeout, REQUESTS_TRANSPORT)
  recordTimeout(
    @Payload() record: RequestRecord<typeof MESSAGING_REQUEST_TYPES.messageTimeout>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.messages.decide(record, context);
  }

  /** A provider's callback the gateway verified and recorded: nobody waits. */
  @DecidesRequest(MESSAGING_REQUEST_TYPES.providerCallback, REQUESTS_TRANSPORT)
  recordCallback(
    @Payload() record: RequestRecord<typeof MESSAGING_REQUEST_TYPES.providerCallback>,
    @Ctx() context: unknown,
  ): Promise<void> {
    const { messaging: facts, requests } = this.config.topics;
    return decideMessaging(record, context, { facts, requests }, (decision) =>
      this.callbacks.handle(decision),
    );
  }
}
