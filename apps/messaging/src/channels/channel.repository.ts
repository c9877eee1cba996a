import type { SqlWindow } from '@cms/http';
import type { EntityManager, Repository } from 'typeorm';

import { ChannelEntity } from './channel.entity';

/** The channels, through one EntityManager: the decision's transaction, or a read's. */
export class ChannelRepository {
  private readonly channels: Repository<ChannelEntity>;

  constructor(manager: EntityManager) {
    this.channels = manager.getRepository(ChannelEntity);
  }

  /** The channel, when it exists and belongs to the workspace. */
  findInWorkspace(workspaceId: number, id: string): Promise<ChannelEntity | null> {
    return this.channels.findOneBy({ id, workspaceId });
  }

  /** In any workspace: the gateway mints ids, so one in use is a replayed or forged request. */
  exists(id: string): Promise<boolean> {
    return this.channels.existsBy({ id });
  }

  nameTaken(workspaceId: number, name: string): Promise<boolean> {
    return this.channels.existsBy({ workspaceId, name });
  }

  async insert(channel: ChannelEntity): Promise<void> {
    await this.channels.insert(channel);
  }

  async list(workspaceId: number, window: SqlWindow): Promise<{ rows: ChannelEntity[]; total: number }> {
    const [rows, total] = await this.channels.findAndCount({
      where: { workspaceId },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }
}
