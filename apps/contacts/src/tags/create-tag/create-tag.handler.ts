import { TAG_FACT_TYPES, type TagCreateRequestedV1 } from '@cms/contracts';
import { Injectable } from '@nestjs/common';

import { ContactsException } from '../../decisions/contacts.exception';
import type { Answer, ContactsDecision } from '../../decisions/decision';
import { assertTagNameFree } from '../tag-name';
import { TagRepository } from '../tag.repository';
import { tagFact, tagResource } from '../tag.resource';

/** POST /api/v1/tags. */
@Injectable()
export class CreateTagHandler {
  async handle(decision: ContactsDecision<TagCreateRequestedV1>): Promise<Answer> {
    const { tag_id: id, color } = decision.data;
    const name = decision.data.name.trim();
    const tags = new TagRepository(decision.manager);
    await assertTagNameFree(tags, decision.workspaceId, name);
    if (await tags.idTaken(id)) throw ContactsException.idInUse('Tag', id);
    const tag = {
      id,
      workspaceId: decision.workspaceId,
      name,
      color: color ?? null,
      createdAt: decision.atDate,
      updatedAt: decision.atDate,
    };
    await tags.insert(tag);
    decision.fact(TAG_FACT_TYPES.created, String(id), tagFact(tag, decision.at));
    return { status: 201, resource: tagResource(tag) };
  }
}
