import type { ChannelType } from '@cms/contracts';
import type { SqlWindow } from '@cms/http';
import {
  Not,
  type EntityManager,
  type FindOptionsWhere,
  type QueryDeepPartialEntity,
  type Repository,
} from 'typeorm';

import { TemplateEntity } from './template.entity';

export interface TemplateFilters {
  name?: string;
  channel?: ChannelType;
}

/** Templates, as the decisions, the reads and the send worker see them. */
export class TemplateRepository {
  private readonly templates: Repository<TemplateEntity>;

  constructor(manager: EntityManager) {
    this.templates = manager.getRepository(TemplateEntity);
  }

  /** The template, when it exists and belongs to the workspace. */
  findInWorkspace(workspaceId: number, id: number): Promise<TemplateEntity | null> {
    return this.templates.findOneBy({ id, workspaceId });
  }

  exists(id: number): Promise<boolean> {
    return this.templates.existsBy({ id });
  }

  /** Whether another template of the workspace has the name on the channel type. */
  nameTaken(workspaceId: number, channel: ChannelType, name: string, exceptId: number): Promise<boolean> {
    return this.templates.existsBy({ workspaceId, channel, name, id: Not(exceptId) });
  }

  async insert(template: TemplateEntity): Promise<void> {
    await this.templates.insert(template as QueryDeepPartialEntity<TemplateEntity>);
  }

  async save(template: TemplateEntity): Promise<void> {
    await this.templates.save(template);
  }

  async delete(id: number): Promise<void> {
    await this.templates.delete({ id });
  }

  /** A page of the workspace's templates, oldest first. */
  async list(
    workspaceId: number,
    filters: TemplateFilters,
    window: SqlWindow,
  ): Promise<{ rows: TemplateEntity[]; total: number }> {
    const where: FindOptionsWhere<TemplateEntity> = { workspaceId };
    if (filters.name !== undefined) where.name = filters.name;
    if (filters.channel !== undefined) where.channel = filters.channel;
    const [rows, total] = await this.templates.findAndCount({
      where,
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }
}
