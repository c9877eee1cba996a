import { TAG_FACT_TYPES, type TagDeleteRequestedV1 } from '@cms/contracts';
import { Injectable } from '@nestjs/common';

import { ContactsException } from '../../decisions/contacts.exception';
import type { Answer, ContactsDecision } from '../../decisions/decision';
import { TagRepository } from '../tag.repository';

/** DELETE /api/v1/tags/{id}: the tag goes, and with it every assignment of it. */
@Injectable()
export class DeleteTagHandler {
  async handle(decision: ContactsDecision<TagDeleteRequestedV1>): Promise<Answer> {
    const { tag_id: id } = decision.data;
    const tags = new TagRepository(decision.manager);
    const tag = await tags.findOne(decision.workspaceId, id);
    if (!tag) throw ContactsException.tagNotFound(id);
    await tags.delete(tag);
    decision.fact(TAG_FACT_TYPES.deleted, String(id), { tag_id: id, at: decision.at });
    return { status: 204 };
  }
}
