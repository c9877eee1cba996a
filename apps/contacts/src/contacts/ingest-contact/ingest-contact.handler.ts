import type { ContactIngestRequestedV1 } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import type { Answer, ContactsDecision } from '../../decisions/decision';
import { ContactWriter } from '../contact-writer';
import { matchContact } from '../contact-identity';
import { eventContactChanges } from '../event-contact';
import { InboundReceiptRepository, inboundResource } from '../inbound-receipt.repository';

/**
 * An inbound webhook payload without an event: adds or updates the contact only, matched like an event's
 * (phone, then external_id, then email; created under the minted id when nothing matches, within the
 * plan's stored-contacts limit). Values are written as of the time the request was received, so newer
 * values win. A repeated retry id answers the original contact and changes nothing.
 */
@Injectable()
export class IngestContactHandler {
  constructor(@Inject(ContactWriter) private readonly writer: ContactWriter) {}

  async handle(decision: ContactsDecision<ContactIngestRequestedV1>): Promise<Answer> {
    const { data, workspaceId } = decision;
    const receipts = new InboundReceiptRepository(decision.manager);
    const retryKeys = data.retry_keys ?? [];
    const repeated = await receipts.original(workspaceId, retryKeys);
    if (repeated) return { status: 200, resource: inboundResource(repeated) };
    const changes = eventContactChanges(data.contact);
    const match = await matchContact(decision.store, workspaceId, changes);
    const view = match
      ? await this.writer.change(decision, match, changes, decision.at)
      : await this.writer.create(decision, data.contact_id, data.contact_limit, changes, decision.at);
    const answer = { eventId: null, contactId: view.contact.id };
    await receipts.record(workspaceId, data.integration_id, retryKeys, answer, decision.atDate);
    return { status: 202, resource: inboundResource(answer) };
  }
}
