import type { ContactUpdateRequestedV1 } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import { ContactsErrorCode, ContactsException } from '../../decisions/contacts.exception';
import type { Answer, Decision } from '../../decisions/decision';
import { contactEndpointChanges } from '../contact-input';
import { contactResource } from '../contact.resource';
import { storeOf } from '../contact-store';
import { ContactWriter } from '../contact-writer';

/**
 * PUT /api/v1/contacts/{id}: writes the fields sent as of the record's time; `data` is merged key by
 * key and consent channels not sent stay as they are. A phone held by another contact is refused,
 * since the phone identifies a contact within its workspace.
 */
@Injectable()
export class UpdateContactHandler {
  constructor(@Inject(ContactWriter) private readonly writer: ContactWriter) {}

  async handle(decision: Decision<ContactUpdateRequestedV1>): Promise<Answer> {
    const { contact_id: id, ...body } = decision.data;
    const contacts = storeOf(decision);
    const contact = await contacts.contact(decision.workspaceId, id);
    if (!contact) throw ContactsException.contactNotFound(id);
    const changes = contactEndpointChanges(body, '/data/attributes');
    if (changes.phone) {
      const holder = await contacts.contactByPhone(decision.workspaceId, changes.phone);
      if (holder && holder.id !== contact.id) {
        throw new ContactsException({
          code: ContactsErrorCode.PhoneTaken,
          detail: `The phone ${changes.phone} already belongs to contact ${holder.id}.`,
          pointer: '/data/attributes/phone',
        });
      }
    }
    const view = await this.writer.change(decision, contact, changes, decision.at);
    return { status: 200, resource: contactResource(view) };
  }
}
