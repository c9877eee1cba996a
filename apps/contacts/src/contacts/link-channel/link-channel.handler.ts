import { CONTACT_FACT_TYPES, type ContactChannelLinkRequestedV1 } from '@cms/contracts';
import { Injectable } from '@nestjs/common';

import { ContactsException } from '../../decisions/contacts.exception';
import type { Answer, ContactsDecision } from '../../decisions/decision';
import { ContactRepository } from '../contact.repository';
import { contactResource } from '../contact.resource';

/**
 * PUT /api/v1/contacts/{id}/channels/{channel}: the contact's id on the channel. One contact of a
 * workspace holds a given channel id: it moves from whichever contact held it before.
 */
@Injectable()
export class LinkChannelHandler {
  async handle(decision: ContactsDecision<ContactChannelLinkRequestedV1>): Promise<Answer> {
    const { contact_id: id, channel, external_id: rawExternalId } = decision.data;
    const externalId = rawExternalId.trim();
    const contacts = new ContactRepository(decision.manager);
    const contact = await contacts.findOne(decision.workspaceId, id);
    if (!contact) throw ContactsException.contactNotFound(id);
    const holder = await contacts.channelHolder(decision.workspaceId, channel, externalId);
    if (holder?.contactId !== id) {
      if (holder) {
        await contacts.unlinkChannel(holder);
        decision.fact(CONTACT_FACT_TYPES.channelUnlinked, String(holder.contactId), {
          contact_id: holder.contactId,
          channel,
          external_id: externalId,
          moved_to_contact_id: id,
          at: decision.at,
        });
      }
      const previous = await contacts.channelLink(id, channel);
      await contacts.linkChannel({
        contactId: id,
        channel,
        workspaceId: decision.workspaceId,
        externalId,
        linkedAt: decision.atDate,
      });
      decision.fact(CONTACT_FACT_TYPES.channelLinked, String(id), {
        contact_id: id,
        channel,
        external_id: externalId,
        previous_external_id: previous?.externalId ?? null,
        at: decision.at,
      });
    }
    return { status: 200, resource: contactResource(await contacts.view(contact)) };
  }
}
