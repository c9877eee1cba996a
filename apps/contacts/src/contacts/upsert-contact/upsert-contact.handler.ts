import type { ContactUpsertRequestedV1, UpsertContactBody } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import type { Answer, ContactsDecision } from '../../decisions/decision';
import { matchContact } from '../contact-identity';
import { contactEndpointChanges } from '../contact-input';
import type { ContactView } from '../contact.repository';
import { contactResource } from '../contact.resource';
import { ContactWriter } from '../contact-writer';

export interface UpsertResult {
  created: boolean;
  view: ContactView;
}

/**
 * POST /api/v1/contacts/upsert: the contact with the same phone (E.164) is updated; without a phone
 * match, the one with the same external_id, then the one with the same email; otherwise a contact is
 * created under the minted id. An identifier the body gives the contact moves from any contact that
 * held it (ContactWriter).
 */
@Injectable()
export class UpsertContactHandler {
  constructor(@Inject(ContactWriter) private readonly writer: ContactWriter) {}

  async handle(decision: ContactsDecision<ContactUpsertRequestedV1>): Promise<Answer> {
    const { contact_id: candidateId, contact_limit: limit, ...body } = decision.data;
    const result = await this.upsert(decision, body, candidateId, limit, '/data/attributes');
    return { status: result.created ? 201 : 200, resource: contactResource(result.view) };
  }

  /** One upsert, also used for each element of a batch (`pointerPrefix` names the element). */
  async upsert(
    decision: ContactsDecision,
    body: UpsertContactBody,
    candidateId: number,
    limit: number,
    pointerPrefix: string,
  ): Promise<UpsertResult> {
    const changes = contactEndpointChanges(body, pointerPrefix);
    const existing = await matchContact(decision.store, decision.workspaceId, changes);
    if (existing) {
      return { created: false, view: await this.writer.change(decision, existing, changes, decision.at) };
    }
    return {
      created: true,
      view: await this.writer.create(decision, candidateId, limit, changes, decision.at),
    };
  }
}
