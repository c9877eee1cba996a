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
import { applyProviderStatus } from '../../messages/provider-status';
import type { CallbackEvent } from '../../providers/provider';
import { ProviderAdapters } from '../../providers/provider-adapters';
import { requestProviderOptOut } from '../provider-opt-out';
import { suppressAddress } from './suppress-address';

/** Nobody waits for a provider's callback: the gateway answered it once it was on the log. */
const RECORDED: Answer = { status: 202 };

/**
 * `provider-callback.received` (extensions §9, Provider callbacks), decided in log order: the body the
 * provider sent is read by the channel's adapter, and each event in it applied — a status moves the
 * message the provider id names (late ones kept in history only; one for an id no message has yet is
 * held for the attempt that will name it), an inbound message is recorded with the contact it comes
 * from (and applied when it is an opt-out or opt-in keyword), an opt-out, complaint or bounce puts the
 * address on the suppression list (an opt-out also asks the contacts service to revoke the contact's
 * marketing consent).
 */
@Injectable()
export class RecordCallbackHandler {
  private readonly early: Counter<'provider'>;

  constructor(
    @Inject(ProviderAdapters) private readonly adapters: ProviderAdapters,
    @Inject(Registry) metrics: Registry,
  ) {
    this.early = new Counter({
      name: 'messaging_provider_statuses_held_total',
      help: 'Statuses in provider callbacks held because no message of the channel had their provider message id yet.',
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
    const optedOut = new Set(events.flatMap((event) => (event.kind === 'opt_out' ? [event.address] : [])));
    // The gateway minted one contact id per inbound message, in their order in the body.
    const contactIds = [...(data.contact_ids ?? [])];
    for (const event of events) {
      const newContactId = event.kind === 'inbound' ? contactIds.shift() : undefined;
      const newContact =
        newContactId === undefined ? undefined : { id: newContactId, limit: data.contact_limit ?? 0 };
      await this.apply(decision, messages, channel, event, optedOut, newContact);
    }
    return RECORDED;
  }

  private async apply(
    decision: MessagingDecision<ProviderCallbackReceivedV1>,
    messages: MessageStore,
    channel: ChannelEntity,
    event: CallbackEvent,
    /** Senders the callback reports as opted out: their inbound text is not also read as a keyword. */
    optedOut: ReadonlySet<string>,
    newContact: { id: number; limit: number } | undefined,
  ): Promise<void> {
    const receivedAt = decision.data.received_at;
    switch (event.kind) {
      case 'status': {
        const at = event.at ?? receivedAt;
        const failure =
          event.failure === undefined
            ? null
            : { code: event.failure.code, provider_code: event.failure.providerCode };
        const message = await decision.manager.findOneBy(MessageEntity, {
          workspaceId: decision.workspaceId,
          channelId: channel.id,
          providerMessageId: event.providerMessageId,
          direction: 'outbound',
        });
        if (message === null) {
          // Decided before the attempt that learns the id (or about a message sent around the
          // service): held for that attempt to apply.
          if (decision.live) this.early.inc({ provider: channel.provider });
          await messages.holdEarlyStatus({
            channelId: Number(channel.id),
            providerMessageId: event.providerMessageId,
            status: event.status,
            workspaceId: decision.workspaceId,
            at,
            failure,
          });
          return;
        }
        await applyProviderStatus(decision, messages, message, channel.type, {
          status: event.status,
          at,
          failure,
        });
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
          providerOptOut: optedOut.has(event.from),
          ...(newContact !== undefined ? { newContact } : {}),
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
