import type { TagFactV1 } from '@cms/contracts';

import type { TagEntity } from './tag.entity';

export function tagResource(tag: TagEntity): Record<string, unknown> {
  return {
    id: tag.id,
    name: tag.name,
    color: tag.color,
    created_at: tag.createdAt.toISOString(),
    updated_at: tag.updatedAt.toISOString(),
  };
}

export function tagFact(tag: TagEntity, at: string): TagFactV1 {
  return { tag_id: tag.id, name: tag.name, color: tag.color, at };
}
