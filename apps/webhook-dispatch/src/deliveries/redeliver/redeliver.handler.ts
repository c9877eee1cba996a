import type { WebhookDeliveryRedeliverRequestedV1 } from '@cms/contracts';
import { Injectable } from '@nestjs/common';

import type { Answer, WebhooksDecision } from '../../decisions/decision';
import { WebhooksException } from '../../decisions/webhooks.exception';
import { WebhookEndpointRepository } from '../../endpoints/webhook-endpoint.repository';
import { WebhookDeliveryRepository } from '../webhook-delivery.repository';

/**
 * POST /api/v1/webhook-endpoints/{id}/deliveries/{delivery_id}/redeliver: the same envelope (same id,
 * same bytes) goes out again with a fresh signature, as a new round of seven attempts whose numbers
 * continue the delivery's history. A switched-off endpoint gets it once it is switched on.
 */
@Injectable()
export class RedeliverHandler {
  async handle(decision: WebhooksDecision<WebhookDeliveryRedeliverRequestedV1>): Promise<Answer> {
    const { endpoint_id: endpointId, delivery_id: id } = decision.data;
    const endpoint = await new WebhookEndpointRepository(decision.manager).findInWorkspace(
      decision.workspaceId,
      endpointId,
    );
    if (!endpoint) throw WebhooksException.endpointNotFound(endpointId);
    // Below the replay horizon the delivery went out again already; its state since is the worker's.
    if (decision.replaying) return { status: 202 };
    const deliveries = new WebhookDeliveryRepository(decision.manager);
    if (!(await deliveries.redeliver(endpointId, id, decision.atDate)))
      throw WebhooksException.deliveryNotFound(id);
    const delivery = await deliveries.findOne(endpointId, id);
    return { status: 202, resource: { ...delivery } };
  }
}
