import { WEBHOOK_FACT_TYPES, type WebhookEndpointCreateRequestedV1 } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import type { Answer, WebhooksDecision } from '../../decisions/decision';
import { WebhooksException } from '../../decisions/webhooks.exception';
import { AddressPolicy } from '@cms/http';
import { endpointUrlProblem } from '../../ssrf/webhook-url';
import { WebhookEndpointEntity } from '../webhook-endpoint.entity';
import { WebhookEndpointRepository } from '../webhook-endpoint.repository';
import { endpointFact, endpointResource } from '../webhook-endpoint.resource';

/** Endpoints one workspace can have at most: each fact fans out to all of them. */
export const MAX_ENDPOINTS_PER_WORKSPACE = 100;

/** POST /api/v1/webhook-endpoints. The gateway adds the clear secret it generated to its 201. */
@Injectable()
export class CreateEndpointHandler {
  constructor(@Inject(AddressPolicy) private readonly policy: AddressPolicy) {}

  async handle(decision: WebhooksDecision<WebhookEndpointCreateRequestedV1>): Promise<Answer> {
    const { endpoint_id: id, url, description, event_types: eventTypes, secret_sealed } = decision.data;
    const problem = endpointUrlProblem(url, this.policy);
    if (problem !== undefined) throw WebhooksException.invalidUrl(problem);
    const endpoints = new WebhookEndpointRepository(decision.manager);
    if (await endpoints.exists(id)) throw WebhooksException.idInUse('Webhook endpoint', id);
    if ((await endpoints.countInWorkspace(decision.workspaceId)) >= MAX_ENDPOINTS_PER_WORKSPACE) {
      throw WebhooksException.endpointLimit(MAX_ENDPOINTS_PER_WORKSPACE);
    }
    const endpoint = Object.assign(new WebhookEndpointEntity(), {
      id,
      workspaceId: decision.workspaceId,
      url,
      description: description ?? null,
      eventTypes,
      enabled: true,
      disabledReason: null,
      secretSealed: secret_sealed,
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
      createdAt: decision.atDate,
      updatedAt: decision.atDate,
    });
    await endpoints.insert(endpoint);
    decision.fact(WEBHOOK_FACT_TYPES.endpointCreated, id, endpointFact(endpoint, decision.at));
    return { status: 201, resource: { ...endpointResource(endpoint, 0) } };
  }
}
