import type { ContactUpsertRequestedV1, UpsertContactBody } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import type { Answer, Decision } from '../../decisions/decision';
import { contactEndpointChanges } from '../contact-input';
import type { ContactView } from '../contact.repository';
import { contactResource } from '../contact.resource';
import { storeOf } from '../contact-store';
import { ContactWriter } from '../contact-writer';

export interface UpsertResult {
  created: boolean;
  view: ContactView;
}

/**
 * POST /api/v1/contacts/upsert: the contact with the same phone (E.164) is updated; without a phone
 * match, the one with the same external_id; otherwise a contact is created under the minted id.
 */
@Injectable()
export class UpsertContactHandler {
  constructor(@Inject(ContactWriter) private readonly writer: ContactWriter) {}

  async handle(decision: Decision<ContactUpsertRequestedV1>): Promise<Answer> {
    const { contact_id: candidateId, contact_limit: limit, ...body } = decision.data;
    const result = await this.upsert(decision, body, candidateId, limit, '/data/attributes');
    return { status: result.created ? 201 : 200, resource: contactResource(result.view) };
  }

  /** One upsert, also used for each element of a batch (`pointerPrefix` names the element). */
  async upsert(
    decision: Decision,
    body: UpsertContactBody,
    candidateId: number,
    limit: number,
    pointerPrefix: string,
  ): Promise<UpsertResult> {
    const changes = contactEndpointChanges(body, pointerPrefix);
    const contacts = storeOf(decision);
    const { workspaceId } = decision;
    const existing =
      (changes.phone ? await contacts.contactByPhone(workspaceId, changes.phone) : null) ??
      (changes.external_id ? await contacts.contactByExternalId(workspaceId, changes.external_id) : null);
    if (existing) {
      return { created: false, view: await this.writer.change(decision, existing, changes, decision.at) };
    }
    return {
      created: true,
      view: await this.writer.create(decision, candidateId, limit, changes, decision.at),
    };
  }
}
