import { WEBHOOK_FACT_TYPES, type WebhookEndpointDeleteRequestedV1 } from '@cms/contracts';
import { Injectable } from '@nestjs/common';

import type { Answer, WebhooksDecision } from '../../decisions/decision';
import { WebhooksException } from '../../decisions/webhooks.exception';
import { WebhookEndpointRepository } from '../webhook-endpoint.repository';

/** DELETE /api/v1/webhook-endpoints/{id}: the endpoint, its deliveries and their attempts go. */
@Injectable()
export class DeleteEndpointHandler {
  async handle(decision: WebhooksDecision<WebhookEndpointDeleteRequestedV1>): Promise<Answer> {
    const { endpoint_id: id } = decision.data;
    const endpoints = new WebhookEndpointRepository(decision.manager);
    if (!(await endpoints.findInWorkspace(decision.workspaceId, id))) {
      throw WebhooksException.endpointNotFound(id);
    }
    await endpoints.delete(id);
    decision.fact(WEBHOOK_FACT_TYPES.endpointDeleted, id, { endpoint_id: id, at: decision.at });
    return { status: 204 };
  }
}
