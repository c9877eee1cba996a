import type { ContactUpdateRequestedV1 } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import { ContactsErrorCode, ContactsException, type ContactsIssue } from '../../decisions/contacts.exception';
import type { Answer, ContactsDecision } from '../../decisions/decision';
import { holderOf, IDENTIFIER_FIELDS } from '../contact-identity';
import { contactEndpointChanges } from '../contact-input';
import { contactResource } from '../contact.resource';
import { ContactWriter } from '../contact-writer';

/**
 * PUT /api/v1/contacts/{id}: writes the fields sent as of the record's time; `data` is merged key by
 * key and consent channels not sent stay as they are. A phone, external_id or email held by another
 * contact is refused: each identifies one contact within its workspace, and a PUT names its contact
 * by id, so it has not matched the holder (as an upsert or an event would) and may not take from it.
 */
@Injectable()
export class UpdateContactHandler {
  constructor(@Inject(ContactWriter) private readonly writer: ContactWriter) {}

  async handle(decision: ContactsDecision<ContactUpdateRequestedV1>): Promise<Answer> {
    const { contact_id: id, ...body } = decision.data;
    const contacts = decision.store;
    const contact = await contacts.contact(decision.workspaceId, id);
    if (!contact) throw ContactsException.contactNotFound(id);
    const changes = contactEndpointChanges(body, '/data/attributes');
    const taken: ContactsIssue[] = [];
    for (const field of IDENTIFIER_FIELDS) {
      const value = changes[field];
      if (!value) continue;
      const holder = await holderOf(contacts, decision.workspaceId, field, value);
      if (holder && holder.id !== contact.id) {
        taken.push({
          code: ContactsErrorCode.IdentifierTaken,
          detail:
            `${field} ${JSON.stringify(value)} already belongs to contact ${holder.id}: PUT does not ` +
            'move an identifier from another contact (an upsert with it does).',
          pointer: `/data/attributes/${field}`,
        });
      }
    }
    if (taken.length > 0) throw new ContactsException(taken);
    const view = await this.writer.change(decision, contact, changes, decision.at);
    return { status: 200, resource: contactResource(view) };
  }
}
