import { In, type EntityManager, type Repository } from 'typeorm';

import { InboundReceiptEntity } from './inbound-receipt.entity';

/** What an inbound webhook request was answered with. */
export interface InboundAnswer {
  eventId: number | null;
  contactId: number;
}

/** The answer of the inbound webhook: `{"event_id": <int or null>, "contact_id": <int>}`. */
export function inboundResource(answer: InboundAnswer): Record<string, unknown> {
  return { event_id: answer.eventId, contact_id: answer.contactId };
}

export class InboundReceiptRepository {
  constructor(private readonly manager: EntityManager) {}

  private get receipts(): Repository<InboundReceiptEntity> {
    return this.manager.getRepository(InboundReceiptEntity);
  }

  /** The earliest request recorded under any of `keys`, if one was. */
  async original(workspaceId: number, keys: readonly string[]): Promise<InboundAnswer | null> {
    if (keys.length === 0) return null;
    const receipt = await this.receipts.findOne({
      where: { workspaceId, key: In([...keys]) },
      order: { recordedAt: 'ASC', key: 'ASC' },
    });
    return receipt ? { eventId: receipt.eventId, contactId: receipt.contactId } : null;
  }

  async record(
    workspaceId: number,
    integrationId: number,
    keys: readonly string[],
    answer: InboundAnswer,
    recordedAt: Date,
  ): Promise<void> {
    if (keys.length === 0) return;
    await this.receipts.insert(
      [...new Set(keys)].map((key) => ({
        workspaceId,
        key,
        integrationId,
        eventId: answer.eventId,
        contactId: answer.contactId,
        recordedAt,
      })),
    );
  }
}
