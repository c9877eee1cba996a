import { WEBHOOK_FACT_TYPES, type WebhookEndpointSwitchOffRequestedV1 } from '@cms/contracts';
import { Injectable } from '@nestjs/common';

import type { Answer, WebhooksDecision } from '../../decisions/decision';
import { WebhookEndpointRepository } from '../webhook-endpoint.repository';

/**
 * webhook-endpoint.switch-off.requested, which the delivery worker appends when the switch-off rule
 * says an endpoint's deliveries keep failing: switches the endpoint off unless it is off already (or
 * gone), at the record's time, and says so with webhook-endpoint.switched-off. Nobody waits for the
 * answer. Decided from the record and the endpoint only, so a rebuild switches the same endpoints off.
 */
@Injectable()
export class SwitchOffEndpointHandler {
  async handle(decision: WebhooksDecision<WebhookEndpointSwitchOffRequestedV1>): Promise<Answer> {
    const { endpoint_id: id, consecutive_failures } = decision.data;
    const endpoints = new WebhookEndpointRepository(decision.manager);
    const endpoint = await endpoints.findInWorkspace(decision.workspaceId, id);
    // Deleted, or switched off meanwhile (by hand, or by the customer's PATCH before this record).
    if (!endpoint?.enabled) return { status: 204 };
    endpoint.enabled = false;
    endpoint.disabledReason = 'failures';
    endpoint.updatedAt = decision.atDate;
    await endpoints.save(endpoint);
    decision.fact(WEBHOOK_FACT_TYPES.endpointSwitchedOff, id, {
      endpoint_id: id,
      reason: 'failures',
      consecutive_failures,
      at: decision.at,
    });
    return { status: 204 };
  }
}
