import type { SqlWindow } from '@cms/http';
import type { EntityManager, QueryDeepPartialEntity, Repository } from 'typeorm';

import { AudienceEntity } from './audience.entity';

/** The audiences, through one EntityManager: the decision's transaction, or a read's. */
export class AudienceRepository {
  private readonly audiences: Repository<AudienceEntity>;

  constructor(manager: EntityManager) {
    this.audiences = manager.getRepository(AudienceEntity);
  }

  /** The audience, when it exists and belongs to the workspace. */
  findInWorkspace(workspaceId: number, id: number): Promise<AudienceEntity | null> {
    return this.audiences.findOneBy({ id, workspaceId });
  }

  /** In any workspace: the gateway mints ids, so one in use is a replayed or forged request. */
  exists(id: number): Promise<boolean> {
    return this.audiences.existsBy({ id });
  }

  nameTaken(workspaceId: number, name: string): Promise<boolean> {
    return this.audiences.existsBy({ workspaceId, name });
  }

  async insert(audience: AudienceEntity): Promise<void> {
    await this.audiences.insert(audience as QueryDeepPartialEntity<AudienceEntity>);
  }

  async list(workspaceId: number, window: SqlWindow): Promise<{ rows: AudienceEntity[]; total: number }> {
    const [rows, total] = await this.audiences.findAndCount({
      where: { workspaceId },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }
}
