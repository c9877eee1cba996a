import { WEBHOOK_TEST_EVENT_TYPE, type WebhookEndpointTestRequestedV1 } from '@cms/contracts';
import { Injectable } from '@nestjs/common';

import type { Answer, WebhooksDecision } from '../../decisions/decision';
import { WebhooksException } from '../../decisions/webhooks.exception';
import { WebhookEndpointRepository } from '../../endpoints/webhook-endpoint.repository';
import { WebhookDeliveryRepository } from '../webhook-delivery.repository';
import { serialiseEnvelope } from '../webhook-envelope';

/**
 * POST /api/v1/webhook-endpoints/{id}/test: one delivery of type webhook.test, whatever kinds the
 * endpoint chose. It is delivered and recorded like any other, but neither its failure nor its success
 * moves the endpoint's failure count.
 */
@Injectable()
export class SendTestHandler {
  async handle(decision: WebhooksDecision<WebhookEndpointTestRequestedV1>): Promise<Answer> {
    const { endpoint_id: endpointId, delivery_id: id } = decision.data;
    const endpoint = await new WebhookEndpointRepository(decision.manager).findInWorkspace(
      decision.workspaceId,
      endpointId,
    );
    if (!endpoint) throw WebhooksException.endpointNotFound(endpointId);
    // Below the replay horizon the test delivery was made (and maybe sent) by an earlier life of the
    // schema; nobody waits for this answer.
    if (decision.replaying) return { status: 202 };
    const deliveries = new WebhookDeliveryRepository(decision.manager);
    if (await deliveries.exists(id)) throw WebhooksException.idInUse('Delivery', id);
    const data = {
      endpoint_id: endpointId,
      message: 'A test delivery sent from the webhook endpoint settings.',
    };
    await deliveries.createAll([
      {
        id,
        endpointId,
        workspaceId: decision.workspaceId,
        eventType: WEBHOOK_TEST_EVENT_TYPE,
        body: serialiseEnvelope(id, WEBHOOK_TEST_EVENT_TYPE, decision.atDate, data),
        countsTowardSwitchOff: false,
        createdAt: decision.atDate,
      },
    ]);
    const delivery = await deliveries.findOne(endpointId, id);
    return { status: 202, resource: { ...delivery } };
  }
}
