import type { ChannelType } from '@cms/contracts';

import { requestConsentChange } from '../contacts/consent-change';
import type { MessagingDecision } from '../decisions/messaging-decision';

/**
 * A provider said the contact opted out on the channel: the contacts service is asked to revoke the
 * contact's marketing consent there, with source `provider`, as of when it happened. One request per
 * contact and channel of a decision.
 */
export function requestProviderOptOut(
  decision: MessagingDecision<unknown>,
  optOut: { contactId: number; channel: ChannelType; at: string },
): void {
  requestConsentChange(decision, { ...optOut, granted: false, source: 'provider' }, [
    'opt-out',
    optOut.contactId,
    optOut.channel,
  ]);
}
