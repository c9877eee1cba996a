import type { MessagingChannelSandboxInboundRequestedV1 } from '@cms/contracts';
import type { Answer } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import type { MessagingDecision } from '../../decisions/messaging-decision';
import { MessagingException } from '../../decisions/messaging.exception';
import { recordInbound } from '../inbound-message';
import { messageIdOfRecord } from '../message-ids';
import { messageResource } from '../message.resource';

/**
 * `POST /api/v1/channels/{id}/sandbox/inbound` (§9.5): an inbound message from `from` on a sandbox
 * channel, recorded and matched to the contact it comes from (null when none matches). Opt-out and
 * opt-in keywords, and creating unknown senders as contacts, are decided with inbound messages from
 * providers, a later part of the service.
 */
@Injectable()
export class SandboxInboundHandler {
  async handle(decision: MessagingDecision<MessagingChannelSandboxInboundRequestedV1>): Promise<Answer> {
    const { data, workspaceId, store: messages } = decision;
    const channel = await messages.channel(workspaceId, data.channel_id);
    if (channel === null || channel.provider !== 'sandbox') {
      throw MessagingException.notASandboxChannel(data.channel_id);
    }
    const { message } = await recordInbound(decision, messages, channel, {
      id: messageIdOfRecord(decision.record.id),
      from: data.from,
      text: data.text,
      providerMessageId: null,
      at: decision.at,
      source: 'sandbox',
    });
    return { status: 202, resource: { ...messageResource(message) } };
  }
}
