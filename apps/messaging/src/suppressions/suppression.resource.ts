import type { SuppressionEntity } from '../messages/message.entity';

/** An entry as the API answers it (extensions §9). */
export interface SuppressionResource {
  id: string;
  channel: string;
  address: string;
  reason: string;
  source: string;
  created_at: string;
}

export function suppressionResource(entry: SuppressionEntity): SuppressionResource {
  return {
    id: entry.id,
    channel: entry.channel,
    address: entry.address,
    reason: entry.reason,
    source: entry.source,
    created_at: entry.createdAt.toISOString(),
  };
}
