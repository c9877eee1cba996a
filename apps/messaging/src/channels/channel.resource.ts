import type { ChannelProvider, ChannelStatus, ChannelType } from '@cms/contracts';

import type { ChannelEntity } from './channel.entity';
import type { ChannelCredentials } from './channel-credentials';
import { maskCredentials } from './channel-secrets';

/** A channel as the API answers it (extensions §9). */
export interface ChannelResource {
  [field: string]: unknown;
  id: number;
  type: ChannelType;
  provider: ChannelProvider;
  name: string;
  status: ChannelStatus;
  is_default: boolean;
  /** Every credential masked: `••••` and its last four characters. */
  credentials: Record<string, string>;
  metadata: Record<string, unknown>;
  callback_url: string;
  created_at: string;
  updated_at: string;
}

export function channelResource(channel: ChannelEntity, secrets: ChannelCredentials): ChannelResource {
  return {
    id: channel.id,
    type: channel.type,
    provider: channel.provider,
    name: channel.name,
    status: channel.status,
    is_default: channel.isDefault,
    credentials: maskCredentials(secrets.open(channel)),
    metadata: channel.metadata,
    callback_url: secrets.callbackUrl(channel),
    created_at: channel.createdAt.toISOString(),
    updated_at: channel.updatedAt.toISOString(),
  };
}

/** The data of messaging-channel.created and .updated: never a credential. */
export function channelFact(channel: ChannelEntity, at: string): Record<string, unknown> {
  return {
    channel_id: channel.id,
    type: channel.type,
    provider: channel.provider,
    name: channel.name,
    status: channel.status,
    is_default: channel.isDefault,
    at,
  };
}
