import { LINK_REQUEST_TYPES, MESSAGING_REQUEST_TYPES, type DecodedRecord } from '@cms/contracts';
import { handlerFor, type RequestHandlers } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import { MESSAGING_CONFIG, type MessagingConfig } from '../config';
import { decideMessaging, messagingTopics, type MessagingDecision } from '../decisions/messaging-decision';
import { RecordClickHandler } from '../links/record-click/record-click.handler';
import type { MessageStore } from './message.repository';
import { RecordAttemptHandler } from './record-attempt/record-attempt.handler';
import { RecordReceiptHandler } from './record-receipt/record-receipt.handler';
import { SendMessageHandler } from './send-message/send-message.handler';

/** The requests of a message's life: a customer's send, and what the workers and providers report of it. */
export const MESSAGE_REQUEST_TYPES = [
  MESSAGING_REQUEST_TYPES.messageSend,
  MESSAGING_REQUEST_TYPES.messageAttempt,
  MESSAGING_REQUEST_TYPES.messageReceipt,
  MESSAGING_REQUEST_TYPES.messageTimeout,
  LINK_REQUEST_TYPES.linkClicks,
] as const;

type MessageRequestType = (typeof MESSAGE_REQUEST_TYPES)[number];

/**
 * Decides the requests of a message's life, one at a time or as part of a chunk (against the
 * chunk's store): the same handlers either way. Only the customer's send is answered; the records
 * the service appended itself get their facts and no outcome.
 */
@Injectable()
export class MessageRequests {
  private readonly handlers: RequestHandlers<MessageRequestType, MessagingDecision>;

  constructor(
    @Inject(MESSAGING_CONFIG) private readonly config: MessagingConfig,
    @Inject(SendMessageHandler) sendMessage: SendMessageHandler,
    @Inject(RecordAttemptHandler) attempts: RecordAttemptHandler,
    @Inject(RecordReceiptHandler) receipts: RecordReceiptHandler,
    @Inject(RecordClickHandler) clicks: RecordClickHandler,
  ) {
    this.handlers = {
      [MESSAGING_REQUEST_TYPES.messageSend]: (decision) => sendMessage.handle(decision),
      [MESSAGING_REQUEST_TYPES.messageAttempt]: (decision) => attempts.handle(decision),
      [MESSAGING_REQUEST_TYPES.messageReceipt]: (decision) => receipts.receipt(decision),
      [MESSAGING_REQUEST_TYPES.messageTimeout]: (decision) => receipts.timeout(decision),
      [LINK_REQUEST_TYPES.linkClicks]: (decision) => clicks.handle(decision),
    };
  }

  decides(type: string): boolean {
    return handlerFor(this.handlers, type) !== undefined;
  }

  decide(record: DecodedRecord, rawContext: unknown, store?: MessageStore): Promise<void> {
    const handler = handlerFor(this.handlers, record.type);
    if (handler === undefined) throw new Error(`${record.type} is not a message request`);
    const answered = record.type === MESSAGING_REQUEST_TYPES.messageSend;
    return decideMessaging(record, rawContext, messagingTopics(this.config.topics, answered), handler, store);
  }
}
