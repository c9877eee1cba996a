import type { ProviderCallbackReceivedV1 } from '@cms/contracts';
import type { Answer } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

import type { ChannelEntity } from '../../channels/channel.entity';
import type { MessagingDecision } from '../../decisions/messaging-decision';
import { findSender, recordInbound } from '../../messages/inbound-message';
import { MessageEntity } from '../../messages/message.entity';
import { inboundMessageId } from '../../messages/message-ids';
import type { MessageStore } from '../../messages/message.repository';
import { reportStatus } from '../../messages/status-change';
import type { CallbackEvent } from '../../providers/provider';
import { ProviderAdapters } from '../../providers/provider-adapters';
import { requestProviderOptOut } from '../provider-opt-out';
import { suppressAddress } from './suppress-address';

/** Nobody waits for a provider's callback: the gateway answered it once it was on the log. */
const RECORDED: Answer = { status: 202 };

/**
 * `provider-callback.received` (extensions §9, Provider callbacks), decided in log order: the body the
 * provider sent is read by the channel's adapter, and each event in it applied — a status moves the
 * message the provider id names (late ones kept in history only), an inbound message is recorded with
 * the contact it comes from, an opt-out, complaint or bounce puts the address on the suppression list
 * (an opt-out also asks the contacts service to revoke the contact's marketing consent).
 */
@Injectable()
export class RecordCallbackHandler {
  private readonly unmatched: Counter<'provider'>;

  constructor(
    @Inject(ProviderAdapters) private readonly adapters: ProviderAdapters,
    @Inject(Registry) metrics: Registry,
  ) {
    this.unmatched = new Counter({
      name: 'messaging_provider_statuses_unmatched_total',
      help: 'Statuses in provider callbacks naming a provider message id no message of the channel has.',
      labelNames: ['provider'] as const,
      registers: [metrics],
    });
  }

  async handle(decision: MessagingDecision<ProviderCallbackReceivedV1>): Promise<Answer> {
    const { data, workspaceId, store: messages } = decision;
    // A channel deleted since its callback was verified has nothing left to change.
    const channel = await messages.channel(workspaceId, data.channel_id);
    if (channel === null) return RECORDED;
    const events = this.adapters.of(channel.provider).parseCallback(channel, {
      contentType: data.content_type,
      body: Buffer.from(data.body_base64, 'base64'),
    });
    for (const event of events) await this.apply(decision, messages, channel, event);
    return RECORDED;
  }

  private async apply(
    decision: MessagingDecision<ProviderCallbackReceivedV1>,
    messages: MessageStore,
    channel: ChannelEntity,
    event: CallbackEvent,
  ): Promise<void> {
    const receivedAt = decision.data.received_at;
    switch (event.kind) {
      case 'status': {
        const message = await decision.manager.findOneBy(MessageEntity, {
          workspaceId: decision.workspaceId,
          channelId: channel.id,
          providerMessageId: event.providerMessageId,
          direction: 'outbound',
        });
        if (message === null) {
          if (decision.live) this.unmatched.inc({ provider: channel.provider });
          return;
        }
        const at = event.at ?? receivedAt;
        const moved = await reportStatus(decision, messages, message, {
          status: event.status,
          at,
          source: 'provider',
          failure:
            event.failure === undefined
              ? null
              : { code: event.failure.code, provider_code: event.failure.providerCode },
        });
        // A failure the provider reports as an opt-out after it accepted the message (the send
        // worker asks for the revocation of one it refused at once).
        if (moved && event.failure?.code === 'opted_out' && message.contactId !== null) {
          requestProviderOptOut(decision, { contactId: message.contactId, channel: channel.type, at });
        }
        return;
      }
      case 'inbound': {
        const id = inboundMessageId(channel.id, event.providerMessageId);
        // A provider sends a callback again when it did not see our answer: the message is one.
        if (await messages.exists(id)) return;
        await recordInbound(decision, messages, channel, {
          id,
          from: event.from,
          text: event.text,
          providerMessageId: event.providerMessageId,
          at: event.at ?? receivedAt,
          source: 'provider',
        });
        return;
      }
      case 'opt_out':
      case 'complaint':
      case 'bounce': {
        await suppressAddress(decision, channel, event.address, event.kind);
        if (event.kind !== 'opt_out') return;
        const contact = await findSender(decision.manager, decision.workspaceId, channel.type, event.address);
        if (contact !== null) {
          requestProviderOptOut(decision, {
            contactId: Number(contact.id),
            channel: channel.type,
            at: receivedAt,
          });
        }
        return;
      }
    }
  }
}
