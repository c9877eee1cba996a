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
 * channel, decided as one from a provider (recordInbound): matched to the contact it comes from (null
 * when none matches), and an opt-out or opt-in keyword changes the suppression list and the consent.
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
      ...(data.contact_id !== undefined
        ? { newContact: { id: data.contact_id, limit: data.contact_limit ?? 0 } }
        : {}),
    });
    return { status: 202, resource: { ...messageResource(message) } };
  }
}
