import { MAX_TAGS_PER_CONTACT, TAG_FACT_TYPES, type TagAssignmentRequestedV1 } from '@cms/contracts';
import { Injectable } from '@nestjs/common';

import { ContactsException } from '../../decisions/contacts.exception';
import type { Answer, ContactsDecision } from '../../decisions/decision';
import { ContactRepository } from '../../contacts/contact.repository';
import { contactResource } from '../../contacts/contact.resource';
import { TagRepository } from '../tag.repository';

export type AssignMode = 'sync' | 'attach' | 'detach';

function target(mode: AssignMode, current: number[], listed: number[]): number[] {
  switch (mode) {
    case 'sync':
      return listed;
    case 'attach':
      return [...new Set([...current, ...listed])];
    case 'detach':
      return current.filter((id) => !listed.includes(id));
  }
}

/**
 * POST /api/v1/tags/sync (replace the contact's tags with the list), /attach (add) and /detach
 * (remove). The contact and every listed tag must be of the workspace, or nothing changes: an id
 * of the body that names nothing there is 422 at its pointer (extensions §1), never 404.
 */
@Injectable()
export class AssignTagsHandler {
  async handle(decision: ContactsDecision<TagAssignmentRequestedV1>, mode: AssignMode): Promise<Answer> {
    const { contact_id: contactId } = decision.data;
    const listed = [...new Set(decision.data.tag_ids)];
    const contacts = new ContactRepository(decision.manager);
    const tags = new TagRepository(decision.manager);
    const contact = await contacts.findOne(decision.workspaceId, contactId);
    if (!contact) {
      throw new ContactsException(
        ContactsException.unknownReference('Contact', contactId, '/data/attributes/contact_id'),
      );
    }
    const known = await tags.existing(decision.workspaceId, listed);
    const unknown = decision.data.tag_ids
      .map((id, index) => ({ id, index }))
      .filter(
        ({ id }, position, all) => !known.has(id) && all.findIndex((other) => other.id === id) === position,
      );
    if (unknown.length > 0) {
      throw new ContactsException(
        unknown.map(({ id, index }) =>
          ContactsException.unknownReference('Tag', id, `/data/attributes/tag_ids/${index}`),
        ),
      );
    }
    const current = await tags.tagIdsOf(contactId);
    const next = target(mode, current, listed);
    if (next.length > MAX_TAGS_PER_CONTACT && next.length > current.length) {
      throw ContactsException.invalid(
        '/data/attributes/tag_ids',
        `A contact holds at most ${MAX_TAGS_PER_CONTACT} tags; this would give it ${next.length}.`,
      );
    }
    const added = next.filter((id) => !current.includes(id)).sort((a, b) => a - b);
    const removed = current.filter((id) => !next.includes(id)).sort((a, b) => a - b);
    if (added.length > 0 || removed.length > 0) {
      await tags.detach(contactId, removed);
      await tags.attach(decision.workspaceId, contactId, added, decision.atDate);
      decision.fact(TAG_FACT_TYPES.contactTagsChanged, String(contactId), {
        contact_id: contactId,
        tag_ids: [...next].sort((a, b) => a - b),
        added,
        removed,
        at: decision.at,
      });
    }
    return { status: 200, resource: contactResource(await contacts.view(contact)) };
  }
}
