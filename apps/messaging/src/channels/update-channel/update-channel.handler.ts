import { MESSAGING_FACT_TYPES, type MessagingChannelUpdateRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import { MESSAGING_CONFIG, type MessagingConfig } from '../../config';
import { MessagingException } from '../../decisions/messaging.exception';
import { ChannelRepository } from '../channel.repository';
import { channelFact, channelResource } from '../channel.resource';
import { ChannelCredentials } from '../channel-credentials';
import { checkProvider, mergeOneLevel, requestCredentials, takeDefaultFlag } from '../channel-rules';
import { sealCredentials } from '../channel-secrets';
import { keywordMetadataProblems } from '../../suppressions/inbound-keywords';

/**
 * PATCH /api/v1/channels/{id}: only the fields sent change. Credentials and metadata are merged one
 * level deep (null removes a member); the merged credentials must still be all the provider needs.
 * `is_default: true` takes the flag from the type's current default, `false` leaves the type without one.
 */
@Injectable()
export class UpdateChannelHandler {
  constructor(
    @Inject(MESSAGING_CONFIG) private readonly config: MessagingConfig,
    @Inject(ChannelCredentials) private readonly secrets: ChannelCredentials,
  ) {}

  async handle(decision: Decision<MessagingChannelUpdateRequestedV1>): Promise<Answer> {
    const { channel_id: id, name, metadata, status, is_default: isDefault } = decision.data;
    const channels = new ChannelRepository(decision.manager);
    const channel = await channels.findInWorkspace(decision.workspaceId, id);
    if (!channel) throw MessagingException.channelNotFound(id);
    const metadataProblems = metadata === undefined ? [] : keywordMetadataProblems(metadata);
    if (metadataProblems.length > 0) throw MessagingException.invalidFields(metadataProblems);
    if (decision.data.credentials_sealed !== undefined) {
      const patch = requestCredentials(decision.data.credentials_sealed, this.config.secretsKey);
      const merged = mergeOneLevel(this.secrets.open(channel), patch);
      checkProvider(channel.provider, channel.type, merged);
      // Sealed again with an IV derived from this record: a rebuild stores the same bytes.
      channel.credentialsSealed = sealCredentials(merged, this.config.secretsKey, decision.record.id);
    }
    if (name !== undefined) channel.name = name;
    if (metadata !== undefined) channel.metadata = mergeOneLevel(channel.metadata, metadata);
    if (status !== undefined) channel.status = status;
    if (isDefault === true && !channel.isDefault) {
      await takeDefaultFlag(decision, channels, channel);
      channel.isDefault = true;
    } else if (isDefault === false) {
      channel.isDefault = false;
    }
    channel.updatedAt = decision.atDate;
    await channels.save(channel);
    decision.fact(MESSAGING_FACT_TYPES.channelUpdated, String(id), () => channelFact(channel, decision.at));
    return { status: 200, resource: channelResource(channel, this.secrets) };
  }
}
