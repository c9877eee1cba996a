import type { SqlWindow } from '@cms/http';
import type { EntityManager, Repository } from 'typeorm';

import { IntegrationEntity } from './integration.entity';

export class IntegrationRepository {
  constructor(private readonly manager: EntityManager) {}

  private get integrations(): Repository<IntegrationEntity> {
    return this.manager.getRepository(IntegrationEntity);
  }

  /** Another workspace's integration is not found, like one that does not exist. */
  findOne(workspaceId: number, id: number): Promise<IntegrationEntity | null> {
    return this.integrations.findOneBy({ workspaceId, id });
  }

  idTaken(id: number): Promise<boolean> {
    return this.integrations.existsBy({ id });
  }

  tokenTaken(tokenHash: string): Promise<boolean> {
    return this.integrations.existsBy({ tokenHash });
  }

  async insert(integration: IntegrationEntity): Promise<void> {
    await this.integrations.insert(integration);
  }

  /** Oldest first, by id. */
  async list(workspaceId: number, window: SqlWindow): Promise<{ rows: IntegrationEntity[]; total: number }> {
    const [rows, total] = await this.integrations.findAndCount({
      where: { workspaceId },
      order: { id: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }
}
