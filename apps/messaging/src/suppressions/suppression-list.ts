import type { ChannelType } from '@cms/contracts';
import type { EntityManager } from 'typeorm';

import { SuppressionEntity } from '../messages/message.entity';

/**
 * The workspace's suppression list, read and written inside a decision's transaction. The send worker
 * reads the table when a message is about to be sent, so an entry added or removed here holds for
 * every later send.
 */
export class SuppressionList {
  constructor(private readonly manager: EntityManager) {}

  /** Adds the entry unless its address is there already; answers the entry that is on the list. */
  async add(entry: SuppressionEntity): Promise<{ added: boolean; entry: SuppressionEntity }> {
    const inserted = await this.manager
      .createQueryBuilder()
      .insert()
      .into(SuppressionEntity)
      .values(entry)
      .orIgnore()
      .returning(['id'])
      .execute();
    if (inserted.raw.length > 0) return { added: true, entry };
    const existing = await this.find(entry.workspaceId, entry.channel, entry.address);
    // Only the same id (a record decided again) can collide without the address being there.
    return { added: false, entry: existing ?? entry };
  }

  find(workspaceId: number, channel: ChannelType, address: string): Promise<SuppressionEntity | null> {
    return this.manager.findOneBy(SuppressionEntity, { workspaceId, channel, address });
  }

  byId(workspaceId: number, id: string): Promise<SuppressionEntity | null> {
    return this.manager.findOneBy(SuppressionEntity, { workspaceId, id });
  }

  async remove(id: string): Promise<void> {
    await this.manager.delete(SuppressionEntity, { id });
  }

  /** Removes the address's `opted_out` entry, if any (an opt-in keyword); other reasons stay. */
  async removeOptOut(workspaceId: number, channel: ChannelType, address: string): Promise<boolean> {
    const result = await this.manager.delete(SuppressionEntity, {
      workspaceId,
      channel,
      address,
      reason: 'opted_out',
    });
    return (result.affected ?? 0) > 0;
  }
}
