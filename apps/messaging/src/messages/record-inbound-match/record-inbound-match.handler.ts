import { MESSAGING_FACT_TYPES, type MessageInboundMatchRecordedV1 } from '@cms/contracts';
import type { Answer } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import type { MessagingDecision } from '../../decisions/messaging-decision';
import { MessageEntity } from '../message.entity';
import { messageFact } from '../message.resource';
import { keywordReplyId } from '../../suppressions/keyword-reply';

/** Nobody waits: the messaging service appended it while deciding the inbound message. */
const RECORDED: Answer = { status: 202 };

/**
 * `message.inbound-match.recorded`: the contact an inbound message's sender was matched to when the
 * message was decided. The message is linked to it (a rebuild thereby links it to the same contact)
 * and message.received is published now, with the contact, for the consumers that start from it. The
 * confirmation of a keyword in the message is linked to the same contact.
 */
@Injectable()
export class RecordInboundMatchHandler {
  async handle(decision: MessagingDecision<MessageInboundMatchRecordedV1>): Promise<Answer> {
    const { data, workspaceId, store: messages } = decision;
    const message = await decision.manager.findOneBy(MessageEntity, {
      id: data.message_id,
      workspaceId,
      direction: 'inbound',
    });
    if (message === null) return RECORDED;
    if (message.contactId !== data.contact_id) {
      message.contactId = data.contact_id;
      await messages.update(message.id, { contactId: data.contact_id });
    }
    // A keyword's confirmation goes to the same contact as the keyword came from.
    const reply = await decision.manager.findOneBy(MessageEntity, {
      id: keywordReplyId(message.id),
      workspaceId,
    });
    if (reply !== null && reply.contactId !== data.contact_id) {
      await messages.update(reply.id, { contactId: data.contact_id });
    }
    const contact = await messages.contact(workspaceId, data.contact_id);
    decision.fact(MESSAGING_FACT_TYPES.messageReceived, message.id, () =>
      messageFact(message, 'received', contact, decision.at),
    );
    return RECORDED;
  }
}
