import type { AudienceSource } from '@cms/contracts';
import type { SqlWindow } from '@cms/http';
import type { EntityManager, QueryDeepPartialEntity, Repository } from 'typeorm';

import { AudienceEntity, AudienceMemberEntity } from './audience.entity';

/** The audiences, through one EntityManager: the decision's transaction, or a read's. */
export class AudienceRepository {
  private readonly audiences: Repository<AudienceEntity>;

  constructor(private readonly manager: EntityManager) {
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

  async save(audience: AudienceEntity): Promise<void> {
    const { id, ...changes } = audience;
    await this.audiences.update({ id }, changes as QueryDeepPartialEntity<AudienceEntity>);
  }

  /** The audience and the contacts imported into it. */
  async remove(id: number): Promise<void> {
    await this.manager.getRepository(AudienceMemberEntity).delete({ audienceId: id });
    await this.audiences.delete({ id });
  }

  async list(
    workspaceId: number,
    window: SqlWindow,
    filters: { name?: string; source?: AudienceSource },
  ): Promise<{ rows: AudienceEntity[]; total: number }> {
    const [rows, total] = await this.audiences.findAndCount({
      where: { workspaceId, ...filters },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }
}
