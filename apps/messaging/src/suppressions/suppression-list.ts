import { SUPPRESSION_FACT_TYPES, type ChannelType, type SuppressionChangedV1 } from '@cms/contracts';
import type { Decision } from '@cms/kafka';
import type { EntityManager } from 'typeorm';

import { SuppressionEntity } from '../messages/message.entity';

/**
 * Publishes a change of the suppression list (`suppression.added` / `suppression.removed`, subject = the
 * entry id) in the decision that made it, so other services keep their own view of who may not be
 * messaged. Called once for each entry that was really added or removed: an entry there already, or
 * one that is gone already, changed nothing and publishes nothing.
 */
export function publishSuppressionChange(
  decision: Decision<unknown>,
  change: keyof typeof SUPPRESSION_FACT_TYPES,
  entry: SuppressionEntity,
): void {
  decision.fact(SUPPRESSION_FACT_TYPES[change], entry.id, (): SuppressionChangedV1 => ({
    id: entry.id,
    channel: entry.channel,
    address: entry.address,
    reason: entry.reason,
    source: entry.source,
    at: decision.at,
  }));
}

/**
 * The workspace's suppression list, read and written inside a decision's transaction. The send worker
 * reads the table when a message is about to be sent, so an entry added or removed here holds for
 * every later send. Each entry added or removed is published as a fact of the decision.
 */
export class SuppressionList {
  private readonly manager: EntityManager;

  constructor(private readonly decision: Decision<unknown>) {
    this.manager = decision.manager;
  }

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
    if (inserted.raw.length > 0) {
      publishSuppressionChange(this.decision, 'added', entry);
      return { added: true, entry };
    }
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

  /** Removes an entry read from the list; answers whether it was still there. */
  async remove(entry: SuppressionEntity): Promise<boolean> {
    const result = await this.manager.delete(SuppressionEntity, { id: entry.id });
    const removed = (result.affected ?? 0) > 0;
    if (removed) publishSuppressionChange(this.decision, 'removed', entry);
    return removed;
  }

  /** Removes the address's `opted_out` entry, if any (an opt-in keyword); other reasons stay. */
  async removeOptOut(workspaceId: number, channel: ChannelType, address: string): Promise<boolean> {
    const entry = await this.manager.findOneBy(SuppressionEntity, {
      workspaceId,
      channel,
      address,
      reason: 'opted_out',
    });
    return entry !== null && this.remove(entry);
  }
}
