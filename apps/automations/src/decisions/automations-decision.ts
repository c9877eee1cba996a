import type { DecodedRecord } from '@cms/contracts';
import { Decision, type RecordContext } from '@cms/kafka';

import { SOURCE } from '../config';

/**
 * A request of the automations service being decided, and whether it is below the replay horizon,
 * where the jobs a decision sets (a schedule bot's tick) are not set again: a rebuild keeps the ones
 * live set.
 */
export class AutomationsDecision<T = unknown> extends Decision<T> {
  readonly live: boolean;

  constructor(record: DecodedRecord<T>, context: Pick<RecordContext, 'manager' | 'replaying'>) {
    super(record, context.manager, SOURCE, !context.replaying);
    this.live = !context.replaying;
  }
}
