import type { WebhookDeliveryType, WebhookEnvelope } from '@cms/contracts';

/**
 * The body of a delivery, `{id, type, created_at, data}`, serialised once when the delivery is created
 * and stored: every attempt and every redelivery sends exactly these bytes, and the signature is made
 * over them.
 */
export function serialiseEnvelope(
  id: string,
  type: WebhookDeliveryType,
  createdAt: Date,
  data: Record<string, unknown>,
): string {
  const envelope: WebhookEnvelope = { id, type, created_at: createdAt.toISOString(), data };
  return JSON.stringify(envelope);
}
