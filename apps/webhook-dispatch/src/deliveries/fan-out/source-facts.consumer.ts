import { deterministicId, type DecodedRecord } from '@cms/contracts';
import { recordContext } from '@cms/kafka';
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { workspaceIdOf } from '../../decisions/decision';
import { WebhookEndpointRepository } from '../../endpoints/webhook-endpoint.repository';
import { FACTS_TRANSPORT } from '../../transports';
import { WebhookDeliveryRepository } from '../webhook-delivery.repository';
import { serialiseEnvelope } from '../webhook-envelope';
import { WEBHOOK_SOURCE_FACT_TYPES, WEBHOOK_SOURCES } from '../webhook-sources';

/**
 * Turns each fact of the table into one delivery per endpoint that receives its kind, inside the
 * consumer's transaction: the deliveries and the checkpoint commit together, and sending happens in the
 * delivery worker, never here. A delivery's id (= its envelope id) is derived from the fact and the
 * endpoint, so a fact read twice cannot make a second one.
 */
@Controller()
export class SourceFactsConsumer {
  @EventPattern(WEBHOOK_SOURCE_FACT_TYPES, FACTS_TRANSPORT)
  async fanOut(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    const source = WEBHOOK_SOURCES[record.type];
    if (!source) return;
    const context = recordContext(rawContext);
    // Below the replay horizon the deliveries of this fact were made by an earlier life of the schema.
    if (context.replaying) return;
    const workspaceId = workspaceIdOf(record);
    const at = new Date(record.time);
    const endpointIds = await new WebhookEndpointRepository(context.manager).receiving(
      workspaceId,
      source.kind,
      at,
    );
    if (endpointIds.length === 0) return;
    const data = source.data(record);
    await new WebhookDeliveryRepository(context.manager).createAll(
      endpointIds.map((endpointId) => {
        const id = deterministicId(record.id, endpointId);
        return {
          id,
          endpointId,
          workspaceId,
          eventType: source.kind,
          body: serialiseEnvelope(id, source.kind, at, data),
          countsTowardSwitchOff: true,
          createdAt: at,
        };
      }),
    );
  }
}
