import { WEBHOOK_FACT_TYPES, type WebhookEndpointRollSecretRequestedV1 } from '@cms/contracts';
import { Injectable } from '@nestjs/common';

import type { Answer, WebhooksDecision } from '../../decisions/decision';
import { WebhooksException } from '../../decisions/webhooks.exception';
import { WebhookEndpointRepository } from '../webhook-endpoint.repository';

/** How long the secret before a roll keeps signing beside the new one. */
export const PREVIOUS_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * POST /api/v1/webhook-endpoints/{id}/roll-secret. The outcome is 200 `{}`: the gateway generated the
 * new secret and adds it, in the clear, to its answer; the log only ever carries it sealed.
 */
@Injectable()
export class RollSecretHandler {
  async handle(decision: WebhooksDecision<WebhookEndpointRollSecretRequestedV1>): Promise<Answer> {
    const { endpoint_id: id, secret_sealed } = decision.data;
    const endpoints = new WebhookEndpointRepository(decision.manager);
    const endpoint = await endpoints.findInWorkspace(decision.workspaceId, id);
    if (!endpoint) throw WebhooksException.endpointNotFound(id);
    const validUntil = new Date(decision.atDate.getTime() + PREVIOUS_SECRET_OVERLAP_MS);
    endpoint.previousSecretSealed = endpoint.secretSealed;
    endpoint.previousSecretExpiresAt = validUntil;
    endpoint.secretSealed = secret_sealed;
    endpoint.updatedAt = decision.atDate;
    await endpoints.save(endpoint);
    decision.fact(WEBHOOK_FACT_TYPES.endpointSecretRolled, id, {
      endpoint_id: id,
      previous_secret_valid_until: validUntil.toISOString(),
      at: decision.at,
    });
    return { status: 200, resource: {} };
  }
}
