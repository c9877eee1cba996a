import {
  CONTACT_REQUEST_TYPES,
  type ChannelType,
  type ContactConsentChangeRequestedV1,
} from '@cms/contracts';

import type { MessagingDecision } from '../decisions/messaging-decision';

/**
 * Asks the contacts service, with the decision's appended requests, to change the contact's marketing
 * consent on a channel (extensions §9, Suppressions and consent from channels): it records the change
 * and sends consent.granted or consent.revoked with `source`. `idParts` make the request's id, so a
 * decision made again asks once.
 */
export function requestConsentChange(
  decision: MessagingDecision<unknown>,
  change: {
    contactId: number;
    channel: ChannelType;
    granted: boolean;
    source: 'provider' | 'keyword';
    at: string;
  },
  idParts: Array<string | number>,
): void {
  const data: ContactConsentChangeRequestedV1 = {
    contact_id: change.contactId,
    channel: change.channel,
    granted: change.granted,
    source: change.source,
    occurred_at: change.at,
  };
  decision.request(CONTACT_REQUEST_TYPES.consentChange, String(change.contactId), idParts, data);
}
