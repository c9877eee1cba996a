import type { MessagingChannelCreatedV1 } from '@cms/contracts';

import type { ChannelEntity } from './channel.entity';

/** The channel as the read API and the outcomes show it. */
export function channelResource(channel: ChannelEntity): Record<string, unknown> {
  return {
    id: channel.id,
    name: channel.name,
    created_at: channel.createdAt.toISOString(),
  };
}

/** The data of `messaging-channel.created`. */
export function channelFact(channel: ChannelEntity, at: string): MessagingChannelCreatedV1 {
  return { channel_id: channel.id, name: channel.name, at };
}
