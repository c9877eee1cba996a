import type { Decision } from '@cms/kafka';

import type { ChannelEntity } from '../../channels/channel.entity';
import { senderAddress, suppressionId } from '../../suppressions/suppression-address';
import { SuppressionList } from '../../suppressions/suppression-list';

/** The suppression list reason of what a provider reported about an address. */
const REASONS = { opt_out: 'opted_out', complaint: 'spam_complaint', bounce: 'bounced' } as const;

/**
 * Puts the address on the workspace's suppression list for the channel's type (source `provider`,
 * published as `suppression.added`); an address already on it keeps its first entry.
 */
export async function suppressAddress(
  decision: Decision<unknown>,
  channel: Pick<ChannelEntity, 'type'>,
  address: string,
  kind: keyof typeof REASONS,
): Promise<void> {
  await new SuppressionList(decision).add({
    id: suppressionId(decision.derivedId('suppression', channel.type, address)),
    workspaceId: decision.workspaceId,
    channel: channel.type,
    // In the list's form, so that it matches the recipient a send reads from the contact.
    address: senderAddress(channel.type, address),
    reason: REASONS[kind],
    source: 'provider',
    createdAt: decision.atDate,
  });
}
