import {
  SUPPRESSION_REQUEST_TYPES,
  type ContactInboundSenderRequestedV1,
  type MessageInboundMatchRecordedV1,
} from '@cms/contracts';
import { RequestRefusedError } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import type { Answer, ContactsDecision } from '../../decisions/decision';
import { matchContact } from '../contact-identity';
import type { ContactChanges } from '../contact-changes';
import { ContactWriter } from '../contact-writer';
import { toE164 } from '../phone-number';

/** The contact `source` of a contact made from a message it sent. */
export const INBOUND_CONTACT_SOURCE = 'inbound';

/**
 * `contact.inbound-sender.requested`, appended by the messaging service: a message arrived on a phone
 * channel from a number its contact view holds no contact for. The contact holding the phone (it may be
 * newer than that view) is the sender; otherwise one is created under the minted id with that phone
 * and source `inbound`, within the plan's stored-contacts limit (at the limit, none is). Either way the
 * messaging service is answered with message.inbound-match.recorded, which links the message (the
 * contact null when none could be made); a rebuild reads that answer from the log.
 */
@Injectable()
export class InboundSenderHandler {
  constructor(@Inject(ContactWriter) private readonly writer: ContactWriter) {}

  async handle(decision: ContactsDecision<ContactInboundSenderRequestedV1>): Promise<Answer> {
    const { data, workspaceId } = decision;
    const phone = toE164(data.phone);
    let contactId: number | null = null;
    if (phone !== undefined) {
      const changes: ContactChanges = { pointer: '/data/attributes', phone, source: INBOUND_CONTACT_SOURCE };
      const holder = await matchContact(decision.store, workspaceId, { pointer: changes.pointer, phone });
      if (holder !== null) {
        contactId = Number(holder.id);
      } else {
        const created = await decision.attempt(() =>
          this.writer.create(decision, data.contact_id, data.contact_limit, changes, decision.at),
        );
        if (!(created instanceof RequestRefusedError)) contactId = Number(created.contact.id);
      }
    }
    const match: MessageInboundMatchRecordedV1 = { message_id: data.message_id, contact_id: contactId };
    decision.request(SUPPRESSION_REQUEST_TYPES.inboundMatch, data.message_id, ['inbound-match'], match);
    return { status: 200 };
  }
}
