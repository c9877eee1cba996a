import { ALERT_REQUEST_TYPES, deterministicId, MESSAGING_REQUEST_TYPES } from '@cms/contracts';
import { idFromDatabase } from '@cms/persistence';
import { TimerTableWorker, type TimerWorkerSettings } from '@cms/service-kit';
import type { EntityManager } from 'typeorm';

import { appendWorkerRecords, type WorkerRecord } from './worker-records';
import { TIMERS_SIGNAL } from './work-signals';

export interface TimerWorkerOptions extends TimerWorkerSettings {
  requestsTopic: string;
}

interface DueTimer {
  id: string;
  workspace_id: string;
  message_id: string;
  kind: 'receipt' | 'timeout' | 'alert';
  payload: { status?: string; step?: number; rule_id?: number };
  due_at: Date;
  now: Date;
}

/** The record a timer becomes: the sandbox's receipt, the end of a route step's wait, an alert's check. */
function recordOf(timer: DueTimer): WorkerRecord {
  const at = new Date(timer.due_at).toISOString();
  const base = {
    id: deterministicId(timer.id, 'fired'),
    workspaceId: idFromDatabase(timer.workspace_id),
    messageId: timer.message_id,
  };
  if (timer.kind === 'receipt') {
    return {
      ...base,
      type: MESSAGING_REQUEST_TYPES.messageReceipt,
      data: { message_id: timer.message_id, status: timer.payload.status, at, source: 'sandbox' },
    };
  }
  if (timer.kind === 'alert') {
    return {
      ...base,
      type: ALERT_REQUEST_TYPES.alertCheck,
      data: { alert_id: timer.message_id, rule_id: timer.payload.rule_id, at },
    };
  }
  return {
    ...base,
    type: MESSAGING_REQUEST_TYPES.messageTimeout,
    data: { message_id: timer.message_id, step: timer.payload.step, at },
  };
}

/**
 * Fires messaging's due timers (the sandbox's receipts, the end of a route step's wait, an alert's
 * check): each becomes its request record, decided in the workspace's order with the customer's.
 */
export class TimerWorker extends TimerTableWorker<Omit<DueTimer, 'due_at' | 'now'>> {
  constructor(private readonly options: TimerWorkerOptions) {
    super(options, {
      table: 'messaging_timers',
      columns: ['id', 'workspace_id', 'message_id', 'kind', 'payload'],
      signal: TIMERS_SIGNAL,
    });
  }

  protected async fired(manager: EntityManager, timers: DueTimer[]): Promise<void> {
    await appendWorkerRecords(
      manager,
      this.options.requestsTopic,
      timers.map(recordOf),
      new Date(timers[0]!.now),
    );
  }
}
