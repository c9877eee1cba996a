import {
  CONTACT_REQUEST_TYPES,
  type ChannelType,
  type ContactConsentChangeRequestedV1,
} from '@cms/contracts';

import type { MessagingDecision } from '../decisions/messaging-decision';

/**
 * A provider said the contact opted out on the channel (extensions §9, Suppressions and consent from
 * channels): the contacts service is asked to revoke the contact's marketing consent there, with source
 * `provider`, as of when it happened. One request per contact and channel of a decision.
 */
export function requestProviderOptOut(
  decision: MessagingDecision<unknown>,
  optOut: { contactId: number; channel: ChannelType; at: string },
): void {
  const data: ContactConsentChangeRequestedV1 = {
    contact_id: optOut.contactId,
    channel: optOut.channel,
    granted: false,
    source: 'provider',
    occurred_at: optOut.at,
  };
  decision.request(
    CONTACT_REQUEST_TYPES.consentChange,
    String(optOut.contactId),
    ['opt-out', optOut.contactId, optOut.channel],
    data,
  );
}
