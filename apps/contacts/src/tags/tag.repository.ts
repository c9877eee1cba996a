import type { SqlWindow } from '@cms/http';
import { In, type EntityManager, type Repository } from 'typeorm';

import { ContactTagEntity } from './contact-tag.entity';
import { TagEntity } from './tag.entity';

/** The tags and tag assignments, through one EntityManager. */
export class TagRepository {
  constructor(private readonly manager: EntityManager) {}

  private get tags(): Repository<TagEntity> {
    return this.manager.getRepository(TagEntity);
  }

  private get assignments(): Repository<ContactTagEntity> {
    return this.manager.getRepository(ContactTagEntity);
  }

  findOne(workspaceId: number, id: number): Promise<TagEntity | null> {
    return this.tags.findOneBy({ workspaceId, id });
  }

  findByName(workspaceId: number, name: string): Promise<TagEntity | null> {
    return this.tags.findOneBy({ workspaceId, name });
  }

  idTaken(id: number): Promise<boolean> {
    return this.tags.existsBy({ id });
  }

  /** Those of `ids` that are tags of the workspace. */
  async existing(workspaceId: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const found = await this.tags.find({ select: { id: true }, where: { workspaceId, id: In(ids) } });
    return new Set(found.map((tag) => tag.id));
  }

  async insert(tag: TagEntity): Promise<void> {
    await this.tags.insert(tag);
  }

  async save(tag: TagEntity): Promise<void> {
    await this.tags.save(tag);
  }

  /** Deletes the tag and takes it off every contact. */
  async delete(tag: TagEntity): Promise<void> {
    await this.assignments.delete({ tagId: tag.id });
    await this.tags.delete({ id: tag.id });
  }

  async tagIdsOf(contactId: number): Promise<number[]> {
    const rows = await this.assignments.find({
      select: { tagId: true },
      where: { contactId },
      order: { tagId: 'ASC' },
    });
    return rows.map((row) => row.tagId);
  }

  async attach(workspaceId: number, contactId: number, tagIds: number[], at: Date): Promise<void> {
    if (tagIds.length === 0) return;
    await this.assignments.insert(tagIds.map((tagId) => ({ contactId, tagId, workspaceId, attachedAt: at })));
  }

  async detach(contactId: number, tagIds: number[]): Promise<void> {
    if (tagIds.length === 0) return;
    await this.assignments.delete({ contactId, tagId: In(tagIds) });
  }

  async list(workspaceId: number, window: SqlWindow): Promise<{ rows: TagEntity[]; total: number }> {
    const [rows, total] = await this.tags.findAndCount({
      where: { workspaceId },
      order: { id: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }
}
