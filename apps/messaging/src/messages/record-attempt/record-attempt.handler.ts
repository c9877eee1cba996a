import { MESSAGING_FACT_TYPES, type MessageAttemptRecordedV1 } from '@cms/contracts';
import type { Answer } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import type { ChannelEntity } from '../../channels/channel.entity';
import { channelFact } from '../../channels/channel.resource';
import { MESSAGING_CONFIG, type MessagingConfig } from '../../config';
import type { MessagingDecision } from '../../decisions/messaging-decision';
import { newLinks } from '../../links/link-rows';
import { sandboxOutcome } from '../../providers/sandbox/sandbox.adapter';
import type { MessageEntity } from '../message.entity';
import { receiptTimerId } from '../message-ids';
import type { MessageStore, NewTimer } from '../message.repository';
import { applyProviderStatus, inReportedOrder } from '../provider-status';
import { reportStatus, type StatusReport } from '../status-change';

/** Nobody waits for a worker's record; the frame publishes the facts and answers no one. */
const RECORDED: Answer = { status: 202 };

/**
 * What the send worker did with a message (sent, failed, suppressed), decided in log order: the
 * message moves, its fact is published, a sandbox send gets the receipts §9.5 says will follow, a
 * provider's statuses decided before it (held for it) apply, a
 * provider that refused the channel's credentials marks the channel failing (a send through it marks
 * it active again), and the route falls back where §9 says so.
 */
@Injectable()
export class RecordAttemptHandler {
  constructor(@Inject(MESSAGING_CONFIG) private readonly config: MessagingConfig) {}

  async handle(decision: MessagingDecision<MessageAttemptRecordedV1>): Promise<Answer> {
    const { data, workspaceId, store: messages } = decision;
    // Live, the worker removed the job when it made this record; a rebuild removes it here.
    const taken = await messages.take(workspaceId, data.message_id, { sendJob: true, timers: [] });
    if (taken === null) return RECORDED;
    const { message, channel, contact } = taken;
    const moved = await reportStatus(decision, messages, message, this.report(data, channel), contact);
    if (!moved) return RECORDED;
    if (data.links !== undefined && data.links.length > 0) {
      // The body went out with its links tracked (§10): they redirect and count from now on.
      const { secretsKey } = this.config;
      await messages.addLinks(newLinks(secretsKey, workspaceId, message.id, data.links, decision.atDate));
    }
    if (channel === null) return RECORDED;
    await this.followChannel(decision, messages, channel, data);
    if (channel.provider === 'sandbox' && message.status === 'sent') {
      await messages.addTimers(this.sandboxReceipts(workspaceId, message, data.attempted_at));
    } else if (data.provider_message_id) {
      // The provider's callbacks may have been decided first: what they said applies now, in order.
      const held = await messages.takeEarlyStatuses(Number(channel.id), data.provider_message_id);
      for (const status of inReportedOrder(held)) {
        await applyProviderStatus(decision, messages, message, channel.type, status);
      }
    }
    return RECORDED;
  }

  private report(data: MessageAttemptRecordedV1, channel: ChannelEntity | null): StatusReport {
    // Suppressions and disabled channels are the service's own verdict; everything else the provider's.
    const byService = data.outcome === 'suppressed' || data.failure?.code === 'channel_disabled';
    const changes: Partial<MessageEntity> = {
      recipient: data.recipient ?? null,
      body: data.body ?? null,
      subject: data.subject ?? null,
      html: data.html ?? null,
      providerMessageId: data.provider_message_id ?? null,
    };
    if (data.suppression) changes.suppression = { ...data.suppression };
    return {
      status: data.outcome,
      at: data.attempted_at,
      source: byService ? 'service' : channel?.provider === 'sandbox' ? 'sandbox' : 'provider',
      changes,
      failure: data.failure ?? null,
    };
  }

  /** A channel whose credentials the provider refused is failing until a send through it succeeds. */
  private async followChannel(
    decision: MessagingDecision<MessageAttemptRecordedV1>,
    messages: MessageStore,
    channel: ChannelEntity,
    data: MessageAttemptRecordedV1,
  ): Promise<void> {
    let status: ChannelEntity['status'] | undefined;
    if (data.outcome === 'sent' && channel.status === 'failing') status = 'active';
    if (data.failure?.code === 'channel_misconfigured' && channel.status === 'active') status = 'failing';
    if (status === undefined) return;
    await messages.setChannelStatus(channel, status, decision.atDate);
    decision.fact(MESSAGING_FACT_TYPES.channelUpdated, String(channel.id), () =>
      channelFact({ ...channel, id: Number(channel.id), status }, decision.at),
    );
  }

  /** §9.5: each status after the previous by SANDBOX_STATUS_DELAY_MS, as the recipient says. */
  private sandboxReceipts(workspaceId: number, message: MessageEntity, attemptedAt: string): NewTimer[] {
    const start = new Date(attemptedAt).getTime();
    const { then } = sandboxOutcome(message.channelType, message.recipient ?? '');
    return then.map((status, index) => ({
      id: receiptTimerId(message.id, status),
      workspaceId,
      messageId: message.id,
      kind: 'receipt' as const,
      payload: { message_id: message.id, status },
      dueAt: new Date(start + (index + 1) * this.config.sandboxStatusDelayMs),
    }));
  }
}
