import type { DecodedRecord } from '@cms/contracts';
import { Decision, type RecordContext } from '@cms/kafka';
import { signalOnCommit } from '@cms/service-kit';

import { SOURCE } from '../config';

/** The commit signal that wakes the fan-out worker: a send that may make messages now. */
export const FANOUT_SIGNAL = 'send_fanouts';
/** The commit signal that wakes the schedule worker: a schedule timer set or moved. */
export const SCHEDULE_SIGNAL = 'schedule_timers';

/**
 * A request of the broadcasts service being decided: besides the record, the partition it came from
 * (send ids are numbered per partition) and whether it is below the replay horizon, where the jobs a
 * decision sets (timers, fan-outs) are not set again: a rebuild keeps the ones live set.
 */
export class BroadcastsDecision<T = unknown> extends Decision<T> {
  readonly partition: number;
  readonly live: boolean;
  private readonly signals = new Set<string>();

  constructor(record: DecodedRecord<T>, context: Pick<RecordContext, 'manager' | 'partition' | 'replaying'>) {
    super(record, context.manager, SOURCE, !context.replaying);
    this.partition = context.partition;
    this.live = !context.replaying;
  }

  /** Wakes `signal`'s worker once this decision commits. */
  async wake(signal: string): Promise<void> {
    if (this.signals.has(signal)) return;
    this.signals.add(signal);
    await signalOnCommit(this.manager, signal);
  }
}
