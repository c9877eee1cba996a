import { CONTACT_REQUEST_TYPES, type UpsertContactBody } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import type { Principal } from '../auth/principal';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { ServiceApi } from '../proxy/service-api';
import { UpstreamProxy } from '../proxy/upstream.proxy';
import { WritePathService, type WriteAnswer } from '../write-path/write-path.service';

/** The contacts service, as the catalog names it among the gateway's upstreams. */
export const CONTACTS = 'contacts';

/**
 * Which of `ids` name no contact of the workspace (another workspace's included), as the contacts
 * service holds them: one statement there however long the list.
 */
export async function unknownContacts(
  proxy: UpstreamProxy,
  workspaceId: number,
  ids: number[],
): Promise<Set<number>> {
  const answer = await proxy.post(CONTACTS, 'contacts/unknown', { contact_ids: ids }, workspaceId);
  return new Set((answer.body as { data: { unknown: number[] } }).data.unknown);
}

/** Contacts, tags and events (extensions §2): decided and read by the contacts service. */
@Injectable()
export class ContactsApi extends ServiceApi {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
    @Inject(WritePathService) writePath: WritePathService,
    @Inject(UpstreamProxy) proxy: UpstreamProxy,
  ) {
    super(CONTACTS, writePath, proxy);
  }

  /** The stored-contacts limit of the caller's plan, which every request that may make a contact carries. */
  contactLimit(caller: Principal): number {
    return this.config.plans[caller.plan].storedContacts;
  }

  /**
   * `POST /api/v1/contacts/upsert`'s request: the contact the body matches is updated, or one is made
   * under a minted id. Its outcome is the contact (201 made, 200 updated) or the refusal; the other
   * routes that make a contact as that route would (a notification's test phone) answer from it.
   */
  async upsert(caller: Principal, body: UpsertContactBody): Promise<WriteAnswer> {
    const contactId = await this.ids.next('contact');
    return this.writePath.submit({
      type: CONTACT_REQUEST_TYPES.upsert,
      workspaceId: caller.workspaceId,
      data: { ...body, contact_id: contactId, contact_limit: this.contactLimit(caller) },
    });
  }

  /**
   * The workspace's contact with `phone` (E.164), or one made by upsert as `POST /api/v1/contacts/upsert`
   * makes it (the plan's stored-contacts limit applies, and its refusal is the answer): where a contact
   * is needed for a phone alone (a notification's test send, extensions §13). The contact is looked up
   * first because the upsert requires a name and would rename a contact it matched: one made here is
   * named after its phone.
   */
  async contactWithPhone(caller: Principal, phone: string): Promise<number> {
    const query = new URLSearchParams({ 'filter[phone]': phone, per_page: '1' }).toString();
    const read = await this.proxy.get(CONTACTS, 'contacts', query, caller.workspaceId);
    const held = (read.body as { data: Array<{ id: number }> }).data[0];
    if (held) return held.id;
    const made = await this.upsert(caller, { name: phone, phone });
    return made.resource!['id'] as number;
  }
}
