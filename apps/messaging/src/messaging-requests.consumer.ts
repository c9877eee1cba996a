import {
  LINK_REQUEST_TYPES,
  MESSAGING_REQUEST_TYPES,
  SUPPRESSION_REQUEST_TYPES,
  type DecodedRecord,
  type RequestRecord,
} from '@cms/contracts';
import { DecidesRequest, handlerFor, type RequestHandlers } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { RecordCallbackHandler } from './callbacks/record-callback/record-callback.handler';
import { CreateChannelHandler } from './channels/create-channel/create-channel.handler';
import { CreatePushSubscriptionHandler } from './channels/create-push-subscription/create-push-subscription.handler';
import { DeleteChannelHandler } from './channels/delete-channel/delete-channel.handler';
import { UpdateChannelHandler } from './channels/update-channel/update-channel.handler';
import { MESSAGING_CONFIG, type MessagingConfig } from './config';
import { decideMessaging, messagingTopics, type MessagingDecision } from './decisions/messaging-decision';
import { CreateTemplateHandler } from './templates/create-template/create-template.handler';
import { DeleteTemplateHandler } from './templates/delete-template/delete-template.handler';
import { UpdateTemplateHandler } from './templates/update-template/update-template.handler';
import { MessageRequests } from './messages/message-requests';
import { SandboxInboundHandler } from './messages/sandbox-inbound/sandbox-inbound.handler';
import { RecordInboundMatchHandler } from './messages/record-inbound-match/record-inbound-match.handler';
import { CreateSuppressionHandler } from './suppressions/create-suppression/create-suppression.handler';
import { DeleteSuppressionHandler } from './suppressions/delete-suppression/delete-suppression.handler';
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
  SUPPRESSION_REQUEST_TYPES.create,
  SUPPRESSION_REQUEST_TYPES.delete,
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
    @Inject(CreateSuppressionHandler) createSuppression: CreateSuppressionHandler,
    @Inject(DeleteSuppressionHandler) deleteSuppression: DeleteSuppressionHandler,
    @Inject(RecordInboundMatchHandler) private readonly inboundMatches: RecordInboundMatchHandler,
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
      [SUPPRESSION_REQUEST_TYPES.create]: (decision) => createSuppression.handle(decision),
      [SUPPRESSION_REQUEST_TYPES.delete]: (decision) => deleteSuppression.handle(decision),
    };
  }

  @EventPattern(ANSWERED_TYPES, REQUESTS_TRANSPORT)
  answer(@Payload() record: DecodedRecord, @Ctx() context: unknown): Promise<void> {
    // Bound to exactly the types of the map.
    return decideMessaging(
      record,
      context,
      messagingTopics(this.config.topics, true),
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
    return decideMessaging(record, context, messagingTopics(this.config.topics, false), (decision) =>
      this.callbacks.handle(decision),
    );
  }

  /** Appended while an inbound message was decided: the contact its sender was matched to. */
  @DecidesRequest(SUPPRESSION_REQUEST_TYPES.inboundMatch, REQUESTS_TRANSPORT)
  recordInboundMatch(
    @Payload() record: RequestRecord<typeof SUPPRESSION_REQUEST_TYPES.inboundMatch>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return decideMessaging(record, context, messagingTopics(this.config.topics, false), (decision) =>
      this.inboundMatches.handle(decision),
    );
  }

  /**
   * Clicks of tracked links, recorded by the gateway after their redirects: nobody waits. Decided with the
   * message's other requests (in chunks), so clicks neither cost a transaction each nor split the runs
   * of sends, attempts and receipts they share partitions with.
   */
  @DecidesRequest(LINK_REQUEST_TYPES.linkClicks, REQUESTS_TRANSPORT)
  recordClicks(
    @Payload() record: RequestRecord<typeof LINK_REQUEST_TYPES.linkClicks>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.messages.decide(record, context);
  }
}
