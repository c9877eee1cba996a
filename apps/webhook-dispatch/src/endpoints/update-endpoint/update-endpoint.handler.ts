import { WEBHOOK_FACT_TYPES, type WebhookEndpointUpdateRequestedV1 } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import type { Answer, WebhooksDecision } from '../../decisions/decision';
import { WebhooksException } from '../../decisions/webhooks.exception';
import { AddressPolicy } from '@cms/http';
import { endpointUrlProblem } from '../../ssrf/webhook-url';
import { WebhookEndpointRepository } from '../webhook-endpoint.repository';
import { endpointFact, endpointResource } from '../webhook-endpoint.resource';

/**
 * PATCH /api/v1/webhook-endpoints/{id}. `enabled: true` switches a switched-off endpoint back on and
 * resets its failure count (its held deliveries then go out); `enabled: false` switches it off by hand.
 */
@Injectable()
export class UpdateEndpointHandler {
  constructor(@Inject(AddressPolicy) private readonly policy: AddressPolicy) {}

  async handle(decision: WebhooksDecision<WebhookEndpointUpdateRequestedV1>): Promise<Answer> {
    const { endpoint_id: id, url, description, event_types: eventTypes, enabled } = decision.data;
    const endpoints = new WebhookEndpointRepository(decision.manager);
    const endpoint = await endpoints.findInWorkspace(decision.workspaceId, id);
    if (!endpoint) throw WebhooksException.endpointNotFound(id);
    if (url !== undefined) {
      const problem = endpointUrlProblem(url, this.policy);
      if (problem !== undefined) throw WebhooksException.invalidUrl(problem);
      endpoint.url = url;
    }
    if (description !== undefined) endpoint.description = description;
    if (eventTypes !== undefined && eventTypes !== null) endpoint.eventTypes = eventTypes;
    if (enabled === true && !endpoint.enabled) {
      endpoint.enabled = true;
      endpoint.disabledReason = null;
      // The count is the worker's, not the log's: below the replay horizon it was reset already, and
      // resetting it again would undo failures counted since.
      if (!decision.replaying) await endpoints.resetFailures(id);
    } else if (enabled === false && endpoint.enabled) {
      endpoint.enabled = false;
      endpoint.disabledReason = 'manual';
    }
    endpoint.updatedAt = decision.atDate;
    await endpoints.save(endpoint);
    decision.fact(WEBHOOK_FACT_TYPES.endpointUpdated, id, endpointFact(endpoint, decision.at));
    return { status: 200, resource: { ...endpointResource(endpoint, await endpoints.failureCount(id)) } };
  }
}
