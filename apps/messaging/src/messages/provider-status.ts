import type { ChannelType, MessageFailureV1 } from '@cms/contracts';

import { requestProviderOptOut } from '../callbacks/provider-opt-out';
import type { MessagingDecision } from '../decisions/messaging-decision';
import type { EarlyStatusEntity, MessageEntity } from './message.entity';
import type { MessageStore } from './message.repository';
import { reportStatus } from './status-change';

/** A status a provider reported for a message it accepted. */
export interface ProviderStatus {
  status: EarlyStatusEntity['status'];
  at: string;
  failure: MessageFailureV1 | null;
}

/**
 * Moves the message to what its provider reported (late ones kept in history only); a failure the
 * provider reports as an opt-out after it accepted the message also asks for the contact's consent
 * to be revoked (the send worker asks for one it refused at once).
 */
export async function applyProviderStatus(
  decision: MessagingDecision<unknown>,
  messages: MessageStore,
  message: MessageEntity,
  channelType: ChannelType,
  reported: ProviderStatus,
): Promise<void> {
  const moved = await reportStatus(decision, messages, message, {
    status: reported.status,
    at: reported.at,
    source: 'provider',
    failure: reported.failure,
  });
  if (moved && reported.failure?.code === 'opted_out' && message.contactId !== null) {
    requestProviderOptOut(decision, {
      contactId: Number(message.contactId),
      channel: channelType,
      at: reported.at,
    });
  }
}

const ORDER: Readonly<Record<EarlyStatusEntity['status'], number>> = {
  sent: 0,
  delivered: 1,
  read: 2,
  failed: 3,
};

/** Held statuses in the order they happened (the order of the lifecycle between equal times). */
export function inReportedOrder(statuses: EarlyStatusEntity[]): ProviderStatus[] {
  return [...statuses]
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || ORDER[a.status] - ORDER[b.status])
    .map((held) => ({ status: held.status, at: held.at, failure: held.failure }));
}
