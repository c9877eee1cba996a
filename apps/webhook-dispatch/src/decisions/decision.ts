import type { DecodedRecord } from '@cms/contracts';
import { Decision } from '@cms/kafka';
import type { EntityManager } from 'typeorm';

export { type Answer } from '@cms/kafka';

export const SOURCE = 'webhook-dispatch';

/**
 * A webhook-dispatch decision: the frame's Decision, and whether its record is below the replay
 * horizon. There an earlier life of the schema already made what the log does not hold (deliveries,
 * redeliveries, failure counts), so the use case must not make it again.
 */
export class WebhooksDecision<T = unknown> extends Decision<T> {
  constructor(
    record: DecodedRecord<T>,
    manager: EntityManager,
    readonly replaying: boolean,
  ) {
    super(record, manager, SOURCE, !replaying);
  }
}
