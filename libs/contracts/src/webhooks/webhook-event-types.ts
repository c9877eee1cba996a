/** The event kinds of the specification an endpoint can subscribe to ("Event kinds"). */
export const WEBHOOK_EVENT_TYPES = [
  'message.sent',
  'message.delivered',
  'message.read',
  'message.failed',
  'message.suppressed',
  'link.clicked',
  'outcome.recorded',
  'consent.granted',
  'consent.revoked',
  'alert.triggered',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The kind of a test delivery (`POST .../test`); never subscribed to, never counted toward switching off. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/** What a delivery's envelope `type` can be. */
export type WebhookDeliveryType = WebhookEventType | typeof WEBHOOK_TEST_EVENT_TYPE;

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** Why an endpoint is switched off: 25 failed deliveries in a row, or the customer's own PATCH. */
export const WEBHOOK_DISABLED_REASONS = ['failures', 'manual'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
