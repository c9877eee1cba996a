import { TAG_FACT_TYPES, type TagUpdateRequestedV1 } from '@cms/contracts';
import { Injectable } from '@nestjs/common';

import { ContactsException } from '../../decisions/contacts.exception';
import type { Answer, ContactsDecision } from '../../decisions/decision';
import { assertTagNameFree } from '../tag-name';
import { TagRepository } from '../tag.repository';
import { tagFact, tagResource } from '../tag.resource';

/** PATCH /api/v1/tags/{id}: a null colour clears it. */
@Injectable()
export class UpdateTagHandler {
  async handle(decision: ContactsDecision<TagUpdateRequestedV1>): Promise<Answer> {
    const { tag_id: id, color } = decision.data;
    const tags = new TagRepository(decision.manager);
    const tag = await tags.findOne(decision.workspaceId, id);
    if (!tag) throw ContactsException.tagNotFound(id);
    const name = decision.data.name?.trim();
    if (name !== undefined) await assertTagNameFree(tags, decision.workspaceId, name, id);
    const next = { name: name ?? tag.name, color: color === undefined ? tag.color : color };
    if (next.name !== tag.name || next.color !== tag.color) {
      Object.assign(tag, next, { updatedAt: decision.atDate });
      await tags.save(tag);
      decision.fact(TAG_FACT_TYPES.updated, String(id), tagFact(tag, decision.at));
    }
    return { status: 200, resource: tagResource(tag) };
  }
}
