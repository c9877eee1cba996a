import type {
  WebhookDeliveryStatus,
  WebhookDeliveryType,
  WebhookDisabledReason,
  WebhookEventType,
} from './webhook-event-types';

/**
 * The shapes webhook-dispatch answers with, in outcomes and on its internal read API
 * (`GET /internal/v1/webhook-endpoints[/{id}[/deliveries]]`), which the gateway passes through.
 * Never a secret: the gateway adds `secret` to the answers of create and roll-secret itself.
 */
export interface WebhookEndpointResource {
  id: string;
  url: string;
  description: string | null;
  event_types: WebhookEventType[];
  enabled: boolean;
  disabled_reason: WebhookDisabledReason | null;
  consecutive_failures: number;
  created_at: string;
  updated_at: string;
}

/** One POST to the endpoint. */
export interface WebhookAttemptResource {
  /** 1-based, counting every attempt the delivery ever had (a redelivery continues the count). */
  attempt: number;
  at: string;
  response_status: number | null;
  /** Cut to 16 KiB. */
  response_body: string | null;
  duration_ms: number | null;
  /** Why the attempt failed; null when it succeeded. */
  error: string | null;
}

export interface WebhookDeliveryResource {
  /** The envelope id, and the Service-Delivery header. */
  id: string;
  endpoint_id: string;
  event_type: WebhookDeliveryType;
  status: WebhookDeliveryStatus;
  attempts: WebhookAttemptResource[];
  /** When the next attempt is due; null once the delivery succeeded or failed. */
  next_attempt_at: string | null;
  created_at: string;
}

/** The body of every delivery, identical for all kinds (specification, "Events"). */
export interface WebhookEnvelope<TData = Record<string, unknown>> {
  id: string;
  type: WebhookDeliveryType;
  created_at: string;
  data: TData;
}
