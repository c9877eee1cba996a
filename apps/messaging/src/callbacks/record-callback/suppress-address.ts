import type { Decision } from '@cms/kafka';

import type { ChannelEntity } from '../../channels/channel.entity';
import { SuppressionEntity } from '../../messages/message.entity';

/** The suppression list reason of what a provider reported about an address. */
const REASONS = { opt_out: 'opted_out', complaint: 'spam_complaint', bounce: 'bounced' } as const;

/**
 * Puts the address on the workspace's suppression list for the channel's type (source `provider`); an
 * address already on it keeps its first entry.
 */
export async function suppressAddress(
  decision: Decision<unknown>,
  channel: Pick<ChannelEntity, 'type'>,
  address: string,
  kind: keyof typeof REASONS,
): Promise<void> {
  await decision.manager
    .createQueryBuilder()
    .insert()
    .into(SuppressionEntity)
    .values({
      id: decision.derivedId('suppression', channel.type, address),
      workspaceId: decision.workspaceId,
      channel: channel.type,
      address,
      reason: REASONS[kind],
      source: 'provider',
      createdAt: decision.atDate,
    })
    .orIgnore()
    .execute();
}
