import {
  createEnvelope,
  deterministicId,
  RUN_INPUT_TYPES,
  type AutomationTimerFiredV1,
} from '@cms/contracts';
import { appendToOutbox, envelopeRecord } from '@cms/kafka';
import { idFromDatabase } from '@cms/persistence';
import { TimerTableWorker, type FiredTimer, type TimerWorkerSettings } from '@cms/service-kit';
import { In, type EntityManager } from 'typeorm';

import { SOURCE } from '../config';
import { ContactEntity } from '../contacts/contact.entity';
import { contactSnapshot } from './run-inputs';
import { RUN_TIMERS_SIGNAL } from './run-book';

export interface RunTimerWorkerOptions extends TimerWorkerSettings {
  requestsTopic: string;
}

interface RunTimerRow {
  id: string;
  workspace_id: string;
  run_id: string;
  contact_id: string;
  reads_contact: boolean;
}

/**
 * Fires the runs' due timers (extensions §12): each becomes an automation.timer.fired record for the
 * requests topic, which the runs consumer decides in the workspace's order. A timer of a run that reads
 * the contact (readsRunContact) carries the contact as the service's view has it then; any other
 * carries none, and neither its contact is read nor its record made larger for nothing.
 */
export class RunTimerWorker extends TimerTableWorker<RunTimerRow> {
  constructor(private readonly options: RunTimerWorkerOptions) {
    super(options, {
      table: 'run_timers',
      columns: ['id', 'workspace_id', 'run_id', 'contact_id', 'reads_contact'],
      signal: RUN_TIMERS_SIGNAL,
    });
  }

  protected async fired(manager: EntityManager, timers: Array<FiredTimer<RunTimerRow>>): Promise<void> {
    const contactIds = [
      ...new Set(
        timers.filter((timer) => timer.reads_contact).map((timer) => idFromDatabase(timer.contact_id)!),
      ),
    ];
    const contacts = new Map(
      contactIds.length === 0
        ? []
        : (await manager.getRepository(ContactEntity).findBy({ id: In(contactIds) })).map((row) => [
            row.id,
            row,
          ]),
    );
    const time = new Date(timers[0]!.now).toISOString();
    await appendToOutbox(
      manager,
      timers.map((timer) => {
        const workspaceId = idFromDatabase(timer.workspace_id)!;
        const contact = timer.reads_contact ? contacts.get(idFromDatabase(timer.contact_id)!) : undefined;
        const data: AutomationTimerFiredV1 = {
          timer_id: timer.id,
          run_id: idFromDatabase(timer.run_id)!,
          due_at: new Date(timer.due_at).toISOString(),
          contact: contact && contact.workspaceId === workspaceId ? contactSnapshot(contact) : null,
        };
        return envelopeRecord(
          this.options.requestsTopic,
          createEnvelope({
            id: deterministicId(timer.id, 'fired'),
            type: RUN_INPUT_TYPES.timer,
            source: SOURCE,
            workspaceid: String(workspaceId),
            subject: String(data.run_id),
            time,
            data,
          }),
        );
      }),
    );
  }
}
