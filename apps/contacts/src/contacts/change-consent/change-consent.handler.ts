import type { ContactConsentChangeRequestedV1 } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import type { Answer, ContactsDecision } from '../../decisions/decision';
import { ContactWriter } from '../contact-writer';

/**
 * `contact.consent-change.requested`, appended by the messaging service: a contact refused or accepted
 * marketing on a channel (an opt-out word, a provider's opt-out). Written like any consent change, as of
 * the time the contact said it, with its source; a contact that no longer exists has nothing to change.
 */
@Injectable()
export class ChangeConsentHandler {
  constructor(@Inject(ContactWriter) private readonly writer: ContactWriter) {}

  async handle(decision: ContactsDecision<ContactConsentChangeRequestedV1>): Promise<Answer> {
    const { contact_id: id, channel, granted, source, occurred_at: at } = decision.data;
    const contact = await decision.store.contact(decision.workspaceId, id);
    if (!contact) return { status: 200 };
    await this.writer.change(
      decision,
      contact,
      { marketing_consent: { [channel]: granted } },
      new Date(at).toISOString(),
      source,
    );
    return { status: 200 };
  }
}
