import { MESSAGING_FACT_TYPES, type MessagingChannelCreateRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import { MessagingException } from '../../decisions/messaging.exception';
import { ChannelEntity } from '../channel.entity';
import { ChannelRepository } from '../channel.repository';
import { channelFact, channelResource } from '../channel.resource';

/** `messaging-channel.create.requested`: a new channel, its name unique in the workspace. */
@Injectable()
export class CreateChannelHandler {
  async handle(decision: Decision<MessagingChannelCreateRequestedV1>): Promise<Answer> {
    const { channel_id: id, name } = decision.data;
    const channels = new ChannelRepository(decision.manager);
    if (await channels.exists(id)) throw MessagingException.idInUse(id);
    if (await channels.nameTaken(decision.workspaceId, name)) throw MessagingException.nameTaken(name);
    const channel = Object.assign(new ChannelEntity(), {
      id,
      workspaceId: decision.workspaceId,
      name,
      createdAt: decision.atDate,
    });
    await channels.insert(channel);
    decision.fact(MESSAGING_FACT_TYPES.channelCreated, id, channelFact(channel, decision.at));
    return { status: 201, resource: channelResource(channel) };
  }
}
