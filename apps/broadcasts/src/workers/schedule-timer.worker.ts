import {
  BROADCAST_INPUT_TYPES,
  createEnvelope,
  deterministicId,
  type NotificationScheduleFiredV1,
} from '@cms/contracts';
import { appendToOutbox, envelopeRecord } from '@cms/kafka';
import { idFromDatabase } from '@cms/persistence';
import { TimerTableWorker, type FiredTimer, type TimerWorkerSettings } from '@cms/service-kit';
import type { EntityManager } from 'typeorm';

import { SOURCE } from '../config';
import { SCHEDULE_SIGNAL } from '../decisions/broadcasts-decision';

export interface ScheduleTimerWorkerOptions extends TimerWorkerSettings {
  requestsTopic: string;
}

interface ScheduleTimerRow {
  id: string;
  workspace_id: string;
  notification_id: string;
  schedule: string;
}

/**
 * Fires the scheduled starts of notifications (extensions §13): each becomes a
 * notification.schedule.fired record for the requests topic, decided there in the workspace's order
 * with the notification's changes (a notification disabled or rescheduled meanwhile starts nothing).
 * Exactly once: the timer row is deleted in the transaction that appends the record.
 */
export class ScheduleTimerWorker extends TimerTableWorker<ScheduleTimerRow> {
  constructor(private readonly options: ScheduleTimerWorkerOptions) {
    super(options, {
      table: 'schedule_timers',
      columns: ['id', 'workspace_id', 'notification_id', 'schedule'],
      signal: SCHEDULE_SIGNAL,
    });
  }

  protected async fired(manager: EntityManager, timers: Array<FiredTimer<ScheduleTimerRow>>): Promise<void> {
    await appendToOutbox(
      manager,
      timers.map((timer) => {
        const dueAt = new Date(timer.due_at).toISOString();
        const data: NotificationScheduleFiredV1 = {
          notification_id: idFromDatabase(timer.notification_id)!,
          due_at: dueAt,
          schedule: timer.schedule,
        };
        return envelopeRecord(
          this.options.requestsTopic,
          createEnvelope({
            id: deterministicId('notification-schedule', timer.id, dueAt),
            type: BROADCAST_INPUT_TYPES.scheduleFired,
            source: SOURCE,
            workspaceid: String(idFromDatabase(timer.workspace_id)),
            subject: String(data.notification_id),
            time: new Date(timer.now).toISOString(),
            data,
          }),
        );
      }),
    );
  }
}
