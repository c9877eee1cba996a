import { MESSAGING_REQUEST_TYPES, type DecodedRecord, type RequestRecord } from '@cms/contracts';
import {
  decideRequest,
  DecidesRequest,
  handlerFor,
  type Answer,
  type Decision,
  type RequestHandlers,
} from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { RecordCallbackHandler } from './callbacks/record-callback/record-callback.handler';
import { CreateChannelHandler } from './channels/create-channel/create-channel.handler';
import { CreatePushSubscriptionHandler } from './channels/create-push-subscription/create-push-subscription.handler';
import { DeleteChannelHandler } from './channels/delete-channel/delete-channel.handler';
import { UpdateChannelHandler } from './channels/update-channel/update-channel.handler';
import { MESSAGING_CONFIG, SOURCE, type MessagingConfig } from './config';
import { decideMessagingRequest } from './decisions/messaging-decision';
import { CreateTemplateHandler } from './templates/create-template/create-template.handler';
import { DeleteTemplateHandler } from './templates/delete-template/delete-template.handler';
import { UpdateTemplateHandler } from './templates/update-template/update-template.handler';
import { RecordAttemptHandler } from './messages/record-attempt/record-attempt.handler';
import { RecordReceiptHandler } from './messages/record-receipt/record-receipt.handler';
import { SandboxInboundHandler } from './messages/sandbox-inbound/sandbox-inbound.handler';
import { SendMessageHandler } from './messages/send-message/send-message.handler';
import { REQUESTS_TRANSPORT } from './transports';

/** The requests a client sends and waits for: each is answered on the outcome topic. */
const ANSWERED_TYPES = [
  MESSAGING_REQUEST_TYPES.channelCreate,
  MESSAGING_REQUEST_TYPES.channelUpdate,
  MESSAGING_REQUEST_TYPES.channelDelete,
  MESSAGING_REQUEST_TYPES.pushSubscriptionCreate,
  MESSAGING_REQUEST_TYPES.messageSend,
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
  private readonly handlers: RequestHandlers<AnsweredType>;

  constructor(
    @Inject(MESSAGING_CONFIG) private readonly config: MessagingConfig,
    @Inject(CreateChannelHandler) createChannel: CreateChannelHandler,
    @Inject(UpdateChannelHandler) updateChannel: UpdateChannelHandler,
    @Inject(DeleteChannelHandler) deleteChannel: DeleteChannelHandler,
    @Inject(CreatePushSubscriptionHandler) createPushSubscription: CreatePushSubscriptionHandler,
    @Inject(CreateTemplateHandler) createTemplate: CreateTemplateHandler,
    @Inject(UpdateTemplateHandler) updateTemplate: UpdateTemplateHandler,
    @Inject(DeleteTemplateHandler) deleteTemplate: DeleteTemplateHandler,
    @Inject(SendMessageHandler) sendMessage: SendMessageHandler,
    @Inject(SandboxInboundHandler) sandboxInbound: SandboxInboundHandler,
    @Inject(RecordAttemptHandler) private readonly attempts: RecordAttemptHandler,
    @Inject(RecordReceiptHandler) private readonly receipts: RecordReceiptHandler,
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
      [MESSAGING_REQUEST_TYPES.messageSend]: (decision) => sendMessage.handle(decision),
      [MESSAGING_REQUEST_TYPES.sandboxInbound]: (decision) => sandboxInbound.handle(decision),
    };
  }

  @EventPattern(ANSWERED_TYPES, REQUESTS_TRANSPORT)
  answer(@Payload() record: DecodedRecord, @Ctx() context: unknown): Promise<void> {
    const topics = { facts: this.config.topics.messaging, outcomes: this.config.topics.outcomes };
    // Bound to exactly the types of the map.
    return decideRequest(record, context, SOURCE, topics, handlerFor(this.handlers, record.type)!);
  }

  /** From the send worker, not a client: no outcome. */
  @DecidesRequest(MESSAGING_REQUEST_TYPES.messageAttempt, REQUESTS_TRANSPORT)
  recordAttempt(
    @Payload() record: RequestRecord<typeof MESSAGING_REQUEST_TYPES.messageAttempt>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.unanswered(record, context, (decision) => this.attempts.handle(decision));
  }

  /** From the timer worker (sandbox receipts) and provider callbacks: no outcome. */
  @DecidesRequest(MESSAGING_REQUEST_TYPES.messageReceipt, REQUESTS_TRANSPORT)
  recordReceipt(
    @Payload() record: RequestRecord<typeof MESSAGING_REQUEST_TYPES.messageReceipt>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.unanswered(record, context, (decision) => this.receipts.receipt(decision));
  }

  /** From the timer worker: a route step's wait ended. */
  @DecidesRequest(MESSAGING_REQUEST_TYPES.messageTimeout, REQUESTS_TRANSPORT)
  recordTimeout(
    @Payload() record: RequestRecord<typeof MESSAGING_REQUEST_TYPES.messageTimeout>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.unanswered(record, context, (decision) => this.receipts.timeout(decision));
  }

  /** A provider's callback the gateway verified and recorded: nobody waits. */
  @DecidesRequest(MESSAGING_REQUEST_TYPES.providerCallback, REQUESTS_TRANSPORT)
  recordCallback(
    @Payload() record: RequestRecord<typeof MESSAGING_REQUEST_TYPES.providerCallback>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.unanswered(record, context, (decision) => this.callbacks.handle(decision));
  }

  /** A request the service appended itself: decided and its facts published, nobody answered. */
  private unanswered<T>(
    record: DecodedRecord<T>,
    context: unknown,
    handler: (decision: Decision<T>) => Promise<Answer>,
  ): Promise<void> {
    const { messaging, requests } = this.config.topics;
    return decideMessagingRequest(record, context, SOURCE, { facts: messaging, requests }, handler);
  }
}
