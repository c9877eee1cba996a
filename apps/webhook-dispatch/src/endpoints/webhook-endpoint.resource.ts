import type { WebhookEndpointResource } from '@cms/contracts';

import type { WebhookEndpointEntity } from './webhook-endpoint.entity';

/** The endpoint as the API shows it, with its failed deliveries in a row: never a secret, sealed or not. */
export function endpointResource(
  endpoint: WebhookEndpointEntity,
  consecutiveFailures: number,
): WebhookEndpointResource {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    event_types: endpoint.eventTypes,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    consecutive_failures: consecutiveFailures,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

/** The data of webhook-endpoint.created and webhook-endpoint.updated. */
export function endpointFact(endpoint: WebhookEndpointEntity, at: string): Record<string, unknown> {
  return {
    endpoint_id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    event_types: endpoint.eventTypes,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    at,
  };
}
