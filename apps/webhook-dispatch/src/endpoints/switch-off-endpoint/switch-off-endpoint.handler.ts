import {
  createEnvelope,
  deterministicId,
  WEBHOOK_FACT_TYPES,
  type DecodedRecord,
  type WebhookEndpointSwitchOffRequestedV1,
} from '@cms/contracts';
import type { RecordContext } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import { WEBHOOK_DISPATCH_CONFIG, type WebhookDispatchConfig } from '../../config';
import { SOURCE, workspaceIdOf } from '../../decisions/decision';
import { WebhookEndpointRepository } from '../webhook-endpoint.repository';

/**
 * webhook-endpoint.switch-off.requested, which the delivery worker appends when an endpoint's
 * deliveries failed 25 times in a row: switches the endpoint off unless it is off already (or gone),
 * at the record's time, and says so with webhook-endpoint.switched-off. Nobody waits for an outcome.
 * Decided from the record and the endpoint only, so a rebuild switches the same endpoints off.
 */
@Injectable()
export class SwitchOffEndpointHandler {
  constructor(@Inject(WEBHOOK_DISPATCH_CONFIG) private readonly config: WebhookDispatchConfig) {}

  async handle(
    record: DecodedRecord<WebhookEndpointSwitchOffRequestedV1>,
    context: RecordContext,
  ): Promise<void> {
    const { endpoint_id: id, delivery_id: deliveryId, attempt, consecutive_failures } = record.data;
    const endpoints = new WebhookEndpointRepository(context.manager);
    const endpoint = await endpoints.findInWorkspace(workspaceIdOf(record), id);
    // Deleted, or switched off meanwhile (by hand, or by the customer's PATCH before this record).
    if (!endpoint?.enabled) return;
    const at = new Date(record.time).toISOString();
    endpoint.enabled = false;
    endpoint.disabledReason = 'failures';
    endpoint.updatedAt = new Date(at);
    await endpoints.save(endpoint);
    const type = WEBHOOK_FACT_TYPES.endpointSwitchedOff;
    context.emit(
      this.config.topics.webhooks,
      createEnvelope({
        id: deterministicId(deliveryId, attempt, type),
        type,
        source: SOURCE,
        workspaceid: record.workspaceid,
        correlationid: record.correlationid,
        causationid: record.id,
        subject: id,
        time: at,
        data: { endpoint_id: id, reason: 'failures', consecutive_failures, at },
      }),
    );
  }
}
