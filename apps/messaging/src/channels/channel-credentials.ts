import { Inject, Injectable } from '@nestjs/common';

import { MESSAGING_CONFIG, type MessagingConfig } from '../config';
import type { ChannelConnection } from '../providers/provider';
import type { ChannelEntity } from './channel.entity';
import { callbackUrl, openCredentials } from './channel-secrets';

/**
 * What only the service may see of a channel: its credentials opened with SECRETS_KEY, and its
 * callback URL (the token in it is derived, never stored).
 */
@Injectable()
export class ChannelCredentials {
  constructor(@Inject(MESSAGING_CONFIG) private readonly config: MessagingConfig) {}

  /** The channel's credentials in the clear; `{}` for a channel that has none. */
  open(channel: Pick<ChannelEntity, 'credentialsSealed'>): Record<string, unknown> {
    return openCredentials(channel.credentialsSealed, this.config.secretsKey);
  }

  /** `<PUBLIC_BASE_URL>/webhook/provider/<token>`. */
  callbackUrl(channel: Pick<ChannelEntity, 'id'>): string {
    return callbackUrl(this.config.publicBaseUrl, channel.id, this.config.secretsKey);
  }

  /** The channel as a provider adapter takes it. */
  connection(channel: ChannelEntity): ChannelConnection {
    return {
      id: String(channel.id),
      type: channel.type,
      provider: channel.provider,
      credentials: this.open(channel),
      metadata: channel.metadata,
    };
  }
}
