import { MESSAGING_FACT_TYPES, type MessagingChannelCreateRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import { MESSAGING_CONFIG, type MessagingConfig } from '../../config';
import { MessagingException } from '../../decisions/messaging.exception';
import { ChannelEntity } from '../channel.entity';
import { ChannelRepository } from '../channel.repository';
import { channelFact, channelResource } from '../channel.resource';
import { ChannelCredentials } from '../channel-credentials';
import { checkProvider, requestCredentials, takeDefaultFlag } from '../channel-rules';
import { callbackToken, callbackTokenHash } from '../channel-secrets';
import { keywordMetadataProblems } from '../../suppressions/inbound-keywords';

/**
 * POST /api/v1/channels. The first channel of a type is its default; `is_default: true` takes the flag
 * from the current default. The credentials are kept as the request sealed them.
 */
@Injectable()
export class CreateChannelHandler {
  constructor(
    @Inject(MESSAGING_CONFIG) private readonly config: MessagingConfig,
    @Inject(ChannelCredentials) private readonly secrets: ChannelCredentials,
  ) {}

  async handle(decision: Decision<MessagingChannelCreateRequestedV1>): Promise<Answer> {
    const { channel_id: id, type, provider, name, metadata, is_default: isDefault } = decision.data;
    const sealed = decision.data.credentials_sealed ?? null;
    checkProvider(provider, type, requestCredentials(sealed, this.config.secretsKey));
    const metadataProblems = keywordMetadataProblems(metadata);
    if (metadataProblems.length > 0) throw MessagingException.invalidFields(metadataProblems);
    const channels = new ChannelRepository(decision.manager);
    if (await channels.exists(id)) throw MessagingException.idInUse('Channel', id);
    const firstOfType = (await channels.defaultOf(decision.workspaceId, type)) === null;
    if (isDefault === true && !firstOfType) await takeDefaultFlag(decision, channels, { id, type });
    const channel = Object.assign(new ChannelEntity(), {
      id,
      workspaceId: decision.workspaceId,
      type,
      provider,
      name,
      status: 'active',
      isDefault: firstOfType || isDefault === true,
      credentialsSealed: sealed,
      metadata,
      callbackTokenHash: callbackTokenHash(callbackToken(id, this.config.secretsKey)),
      createdAt: decision.atDate,
      updatedAt: decision.atDate,
    });
    await channels.insert(channel);
    decision.fact(MESSAGING_FACT_TYPES.channelCreated, String(id), () => channelFact(channel, decision.at));
    return { status: 201, resource: channelResource(channel, this.secrets) };
  }
}
