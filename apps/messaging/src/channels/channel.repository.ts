import type { ChannelType } from '@cms/contracts';
import type { SqlWindow } from '@cms/http';
import type { EntityManager, QueryDeepPartialEntity, Repository } from 'typeorm';

import { ChannelEntity, PushSubscriptionEntity } from './channel.entity';
import { callbackTokenHash } from './channel-secrets';

/** Channels and their push subscriptions, as the decisions and the reads see them. */
export class ChannelRepository {
  private readonly channels: Repository<ChannelEntity>;
  private readonly subscriptions: Repository<PushSubscriptionEntity>;

  constructor(manager: EntityManager) {
    this.channels = manager.getRepository(ChannelEntity);
    this.subscriptions = manager.getRepository(PushSubscriptionEntity);
  }

  /** The channel, when it exists and belongs to the workspace. */
  findInWorkspace(workspaceId: number, id: number): Promise<ChannelEntity | null> {
    return this.channels.findOneBy({ id, workspaceId });
  }

  /** The channel of whatever workspace (a worker's lookup by id). */
  findOne(id: number): Promise<ChannelEntity | null> {
    return this.channels.findOneBy({ id });
  }

  exists(id: number): Promise<boolean> {
    return this.channels.existsBy({ id });
  }

  /** The workspace's default channel of the type, if it has one. */
  defaultOf(workspaceId: number, type: ChannelType): Promise<ChannelEntity | null> {
    return this.channels.findOneBy({ workspaceId, type, isDefault: true });
  }

  /** The channel a callback URL's token names (of whatever workspace). */
  findByCallbackToken(token: string): Promise<ChannelEntity | null> {
    return this.channels.findOneBy({ callbackTokenHash: callbackTokenHash(token) });
  }

  /** The oldest channel of the type left in the workspace. */
  oldestOfType(workspaceId: number, type: ChannelType): Promise<ChannelEntity | null> {
    return this.channels.findOne({ where: { workspaceId, type }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async insert(channel: ChannelEntity): Promise<void> {
    await this.channels.insert(channel as QueryDeepPartialEntity<ChannelEntity>);
  }

  async save(channel: ChannelEntity): Promise<void> {
    await this.channels.save(channel);
  }

  /** The channel and its push subscriptions. */
  async delete(channel: ChannelEntity): Promise<void> {
    await this.subscriptions.delete({ channelId: channel.id });
    await this.channels.delete({ id: channel.id });
  }

  /** A page of the workspace's channels (of one type, when given), oldest first. */
  async list(
    workspaceId: number,
    type: ChannelType | undefined,
    window: SqlWindow,
  ): Promise<{ rows: ChannelEntity[]; total: number }> {
    const [rows, total] = await this.channels.findAndCount({
      where: { workspaceId, ...(type !== undefined ? { type } : {}) },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }

  findSubscription(subscriberId: string): Promise<PushSubscriptionEntity | null> {
    return this.subscriptions.findOneBy({ subscriberId });
  }

  async saveSubscription(subscription: PushSubscriptionEntity): Promise<void> {
    await this.subscriptions.save(subscription);
  }
}
