import { deterministicId, type DecodedRecord } from '@cms/contracts';
import { workspaceIdOf } from '@cms/kafka';
import type { EntityManager } from 'typeorm';

import { WebhookEndpointRepository, type Receiver } from '../../endpoints/webhook-endpoint.repository';
import { WebhookDeliveryRepository, type NewDelivery } from '../webhook-delivery.repository';
import { serialiseEnvelope } from '../webhook-envelope';
import { WEBHOOK_SOURCES } from '../webhook-sources';

/**
 * The deliveries a fact makes: one per endpoint of its workspace that receives its kind and existed
 * when it happened. A delivery's id (= its envelope id) is derived from the fact and the endpoint, so
 * a fact read twice cannot make a second one.
 */
export class FanOut {
  /** The workspaces' endpoints, read once for all the facts. */
  static async load(manager: EntityManager, facts: readonly DecodedRecord[]): Promise<FanOut> {
    const workspaces = [...new Set(facts.map((fact) => workspaceIdOf(fact)))];
    const byWorkspace = new Map<number, Receiver[]>();
    for (const endpoint of await new WebhookEndpointRepository(manager).receivers(workspaces)) {
      const endpoints = byWorkspace.get(endpoint.workspaceId);
      if (endpoints) endpoints.push(endpoint);
      else byWorkspace.set(endpoint.workspaceId, [endpoint]);
    }
    return new FanOut(byWorkspace);
  }

  /** Each workspace's endpoints in id order. */
  private constructor(private readonly byWorkspace: ReadonlyMap<number, readonly Receiver[]>) {}

  /** The deliveries of one fact, read at `offset` of its partition, in endpoint id order. */
  deliveriesOf(fact: DecodedRecord, offset: string): NewDelivery[] {
    const source = WEBHOOK_SOURCES[fact.type];
    if (!source) return [];
    const workspaceId = workspaceIdOf(fact);
    const at = new Date(fact.time);
    const receiving = (this.byWorkspace.get(workspaceId) ?? []).filter(
      (endpoint) => endpoint.eventTypes.includes(source.kind) && endpoint.createdAt.getTime() <= at.getTime(),
    );
    if (receiving.length === 0) return [];
    const data = source.data(fact);
    const subject = source.subject?.(fact);
    return receiving.map(({ id: endpointId }) => {
      const id = deterministicId(fact.id, endpointId);
      return {
        id,
        endpointId,
        workspaceId,
        eventType: source.kind,
        body: serialiseEnvelope(id, source.kind, at, data),
        countsTowardSwitchOff: true,
        createdAt: at,
        ...(subject !== undefined ? { ordered: { subject, factOffset: offset } } : {}),
      };
    });
  }

  /** Makes the deliveries of a fact read at `offset`, in the surrounding transaction. */
  static async apply(manager: EntityManager, fact: DecodedRecord, offset: string): Promise<void> {
    const fanOut = await FanOut.load(manager, [fact]);
    await FanOut.create(manager, fanOut.deliveriesOf(fact, offset));
  }

  static async create(manager: EntityManager, deliveries: readonly NewDelivery[]): Promise<void> {
    await new WebhookDeliveryRepository(manager).createAll(deliveries);
  }
}
