import { CHANNEL_TYPES, type ChannelType } from '@cms/contracts';

import { suppressionAddress } from './filter-operands';

/** An entry of the messaging service's suppression list, as the segments service keeps it. */
export interface SuppressionEntryRow {
  id: string;
  channel: ChannelType;
  address: string;
  active: boolean;
}

/**
 * The active entries of a workspace's suppression list by channel type and address. Entries are kept
 * by id, so one delivered twice changes nothing, and an inactive one is a removal. Several entries
 * may suppress one address (one per reason): it stays suppressed until the last is removed.
 */
export class SuppressionList {
  private readonly active = new Map<string, { channel: ChannelType; address: string }>();
  private readonly byChannel = new Map<ChannelType, Map<string, number>>(
    CHANNEL_TYPES.map((channel) => [channel, new Map<string, number>()]),
  );
  /** Per channel type, changes with every addition or removal (what is derived from it is stale). */
  private readonly versions = new Map<ChannelType, number>(CHANNEL_TYPES.map((channel) => [channel, 0]));

  upsert(entry: SuppressionEntryRow): void {
    const old = this.active.get(entry.id);
    if (old !== undefined) {
      this.active.delete(entry.id);
      this.release(old.channel, old.address);
    }
    if (!entry.active) return;
    const address = suppressionAddress(entry.channel, entry.address);
    this.active.set(entry.id, { channel: entry.channel, address });
    const addresses = this.byChannel.get(entry.channel)!;
    addresses.set(address, (addresses.get(address) ?? 0) + 1);
    this.bump(entry.channel);
  }

  /** Whether an address (in suppressionAddress form) is suppressed for the channel type. */
  has(channel: ChannelType, address: string): boolean {
    return this.byChannel.get(channel)!.has(address);
  }

  /** Whether the channel type has any suppressed address. */
  any(channel: ChannelType): boolean {
    return this.byChannel.get(channel)!.size > 0;
  }

  /** The suppressed addresses of a channel type. */
  addresses(channel: ChannelType): string[] {
    return [...this.byChannel.get(channel)!.keys()];
  }

  version(channel: ChannelType): number {
    return this.versions.get(channel)!;
  }

  private release(channel: ChannelType, address: string): void {
    const addresses = this.byChannel.get(channel)!;
    const left = addresses.get(address)! - 1;
    if (left === 0) addresses.delete(address);
    else addresses.set(address, left);
    this.bump(channel);
  }

  private bump(channel: ChannelType): void {
    this.versions.set(channel, this.versions.get(channel)! + 1);
  }
}
