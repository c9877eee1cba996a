import { MESSAGING_FACT_TYPES, type MessagingChannelDeleteRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import { MessagingException } from '../../decisions/messaging.exception';
import { ChannelRepository } from '../channel.repository';
import { channelFact } from '../channel.resource';

/**
 * DELETE /api/v1/channels/{id}: the channel and its push subscriptions go. When it was the default of
 * its type, the oldest channel of the type left becomes the default (published as its update).
 */
@Injectable()
export class DeleteChannelHandler {
  async handle(decision: Decision<MessagingChannelDeleteRequestedV1>): Promise<Answer> {
    const { channel_id: id } = decision.data;
    const channels = new ChannelRepository(decision.manager);
    const channel = await channels.findInWorkspace(decision.workspaceId, id);
    if (!channel) throw MessagingException.channelNotFound(id);
    await channels.delete(channel);
    decision.fact(MESSAGING_FACT_TYPES.channelDeleted, String(id), { id, at: decision.at });
    if (channel.isDefault) {
      const next = await channels.oldestOfType(decision.workspaceId, channel.type);
      if (next) {
        next.isDefault = true;
        next.updatedAt = decision.atDate;
        await channels.save(next);
        decision.fact(MESSAGING_FACT_TYPES.channelUpdated, String(next.id), () =>
          channelFact(next, decision.at),
        );
      }
    }
    return { status: 204 };
  }
}
