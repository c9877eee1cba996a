import type { SqlWindow } from '@cms/http';
import type { EntityManager, FindOptionsWhere, QueryDeepPartialEntity, Repository } from 'typeorm';

import { EventEntity } from './event.entity';

export interface EventFilters {
  name?: string;
  contactId?: number;
}

export class EventRepository {
  constructor(private readonly manager: EntityManager) {}

  private get events(): Repository<EventEntity> {
    return this.manager.getRepository(EventEntity);
  }

  findByIdempotencyKey(workspaceId: number, idempotencyKey: string): Promise<EventEntity | null> {
    return this.events.findOneBy({ workspaceId, idempotencyKey });
  }

  findOne(workspaceId: number, id: number): Promise<EventEntity | null> {
    return this.events.findOneBy({ workspaceId, id });
  }

  idTaken(id: number): Promise<boolean> {
    return this.events.existsBy({ id });
  }

  async insert(event: EventEntity): Promise<void> {
    // TypeORM's partial type cannot see through a jsonb Record.
    await this.events.insert(event as QueryDeepPartialEntity<EventEntity>);
  }

  /** Newest first: by the time the event was received, then by id. */
  async list(
    workspaceId: number,
    filters: EventFilters,
    window: SqlWindow,
  ): Promise<{ rows: EventEntity[]; total: number }> {
    const where: FindOptionsWhere<EventEntity> = { workspaceId };
    if (filters.name !== undefined) where.name = filters.name;
    if (filters.contactId !== undefined) where.contactId = filters.contactId;
    const [rows, total] = await this.events.findAndCount({
      where,
      order: { receivedAt: 'DESC', id: 'DESC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }
}
