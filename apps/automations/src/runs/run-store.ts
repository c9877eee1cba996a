import { signalOnCommit } from '@cms/service-kit';
import { In, type EntityManager } from 'typeorm';

import type { RunMessage, RunState, RunWorkflow } from '../engine/run-engine';
import { WorkflowEntity, WorkflowVersionEntity } from '../workflows/workflow.entity';
import {
  OutcomeEntity,
  RunContactEventEntity,
  RunMessageEntity,
  RunTimerEntity,
  WorkflowRunEntity,
} from './run.entity';

/** Run ids interleave the partitions of the requests topic: `next × RUN_ID_PARTITIONS + partition + 1`. */
export const RUN_ID_PARTITIONS = 256;

/** The commit signal that wakes the timer worker: sent by the transaction that sets a timer. */
export const RUN_TIMERS_SIGNAL = 'run_timers';

const GOING = ['active', 'waiting'];

export function runState(row: WorkflowRunEntity): RunState {
  return {
    id: row.id,
    workflow_id: row.workflowId,
    version: row.version,
    contact_id: row.contactId,
    status: row.status,
    current_step: row.currentStep,
    trigger_event: row.triggerEvent,
    waited_event: row.waitedEvent,
    started_at: row.startedAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
    history: row.history,
    waiting_for: row.waitingFor,
    goal_deadline: row.goalDeadline?.toISOString() ?? null,
  };
}

function runRow(state: RunState, workspaceId: number): WorkflowRunEntity {
  return Object.assign(new WorkflowRunEntity(), {
    id: state.id,
    workspaceId,
    workflowId: state.workflow_id,
    version: state.version,
    contactId: state.contact_id,
    status: state.status,
    currentStep: state.current_step,
    triggerEventId: state.trigger_event.id,
    triggerEvent: state.trigger_event,
    waitedEvent: state.waited_event,
    startedAt: new Date(state.started_at),
    endedAt: state.ended_at === null ? null : new Date(state.ended_at),
    history: state.history,
    waitingFor: state.waiting_for,
    goalDeadline: state.goal_deadline === null ? null : new Date(state.goal_deadline),
  });
}

/** The rows runs are made of, through the decision's transaction. */
export class RunStore {
  private readonly versions = new Map<string, RunWorkflow | null>();

  constructor(private readonly manager: EntityManager) {}

  /** The enabled workflows of the workspace whose trigger is `eventName`, oldest first. */
  triggeredBy(workspaceId: number, eventName: string): Promise<WorkflowEntity[]> {
    return this.manager
      .getRepository(WorkflowEntity)
      .createQueryBuilder('workflow')
      .where('workflow.workspace_id = :workspaceId', { workspaceId })
      .andWhere('workflow.enabled')
      .andWhere("workflow.trigger ->> 'event' = :eventName", { eventName })
      .orderBy('workflow.id')
      .getMany();
  }

  /**
   * The version a run runs on, with the workflow's name now (messages and outcomes carry the name when
   * they are made; a deleted workflow's last name).
   */
  async workflowOf(workflowId: number, version: number): Promise<RunWorkflow | null> {
    const key = `${workflowId}:${version}`;
    if (this.versions.has(key)) return this.versions.get(key)!;
    const [stored, current] = await Promise.all([
      this.manager.getRepository(WorkflowVersionEntity).findOneBy({ workflowId, version }),
      this.manager.getRepository(WorkflowEntity).findOneBy({ id: workflowId }),
    ]);
    const workflow: RunWorkflow | null =
      stored === null
        ? null
        : {
            id: workflowId,
            name: current?.name ?? stored.name,
            version,
            definition: { steps: stored.steps, goal: stored.goal } as unknown as RunWorkflow['definition'],
          };
    this.versions.set(key, workflow);
    return workflow;
  }

  /** The contact's runs that are active or waiting, in the order they started. */
  goingRunsOf(workspaceId: number, contactId: number): Promise<WorkflowRunEntity[]> {
    return this.manager.getRepository(WorkflowRunEntity).find({
      where: { workspaceId, contactId, status: In(GOING) },
      order: { id: 'ASC' },
    });
  }

  /** Every run the contact had of the workflow (re_entry reads them all). */
  runsOf(
    contactId: number,
    workflowId: number,
  ): Promise<Array<Pick<WorkflowRunEntity, 'id' | 'status' | 'triggerEventId'>>> {
    return this.manager.getRepository(WorkflowRunEntity).find({
      select: { id: true, status: true, triggerEventId: true },
      where: { contactId, workflowId },
      order: { id: 'ASC' },
    });
  }

  runInWorkspace(workspaceId: number, id: number): Promise<WorkflowRunEntity | null> {
    return this.manager.getRepository(WorkflowRunEntity).findOneBy({ id, workspaceId });
  }

  goingRunsOfWorkflow(workflowId: number): Promise<WorkflowRunEntity[]> {
    return this.manager.getRepository(WorkflowRunEntity).find({
      where: { workflowId, status: In(GOING) },
      order: { id: 'ASC' },
    });
  }

  /** A new run's id: the partition's next, numbered in the order the partition's records come. */
  async nextRunId(partition: number): Promise<number> {
    const rows: Array<{ next: string }> = await this.manager.query(
      `INSERT INTO run_id_counters (partition, next) VALUES ($1, 1)
       ON CONFLICT (partition) DO UPDATE SET next = run_id_counters.next + 1
       RETURNING next`,
      [partition],
    );
    return (Number(rows[0]!.next) - 1) * RUN_ID_PARTITIONS + partition + 1;
  }

  saveRun(state: RunState, workspaceId: number): Promise<WorkflowRunEntity> {
    return this.manager.getRepository(WorkflowRunEntity).save(runRow(state, workspaceId));
  }

  /** The run's messages as their facts left them (made ones first reported `queued`). */
  async messagesOf(runId: number): Promise<RunMessage[]> {
    const rows = await this.manager.getRepository(RunMessageEntity).findBy({ runId });
    return rows.map((row) => ({
      message_id: row.messageId,
      step: row.step,
      made_at: row.madeAt.toISOString(),
      status: row.status,
      clicked: row.clicked,
      channel: row.channel,
    }));
  }

  async messageMade(runId: number, step: string, messageId: string, at: string): Promise<void> {
    await this.manager.query(
      `INSERT INTO run_messages (message_id, run_id, step, made_at, status, clicked, channel)
       VALUES ($1, $2, $3, $4, 'queued', false, NULL) ON CONFLICT (message_id) DO NOTHING`,
      [messageId, runId, step, at],
    );
  }

  /** What a message's fact reports: its status and channel, or a click; a message of the route made later is added. */
  async messageReported(report: {
    messageId: string;
    runId: number;
    step: string;
    status?: string;
    clicked?: boolean;
    channel: string | null;
    at: string;
  }): Promise<void> {
    await this.manager.query(
      `INSERT INTO run_messages (message_id, run_id, step, made_at, status, clicked, channel)
       VALUES ($1, $2, $3, $4, COALESCE($5, 'queued'), COALESCE($6, false), $7)
       ON CONFLICT (message_id) DO UPDATE SET
         status = COALESCE($5, run_messages.status),
         clicked = run_messages.clicked OR COALESCE($6, false),
         channel = COALESCE($7, run_messages.channel)`,
      [
        report.messageId,
        report.runId,
        report.step,
        report.at,
        report.status ?? null,
        report.clicked ?? null,
        report.channel,
      ],
    );
  }

  async eventRecorded(event: {
    id: number;
    contactId: number;
    name: string;
    occurredAt: string;
  }): Promise<void> {
    await this.manager.query(
      `INSERT INTO run_contact_events (event_id, contact_id, name, occurred_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (event_id) DO NOTHING`,
      [event.id, event.contactId, event.name, event.occurredAt],
    );
  }

  /** The occurred_at (ISO 8601) of each of the contact's events, by name. */
  async eventsOf(contactId: number): Promise<Map<string, string[]>> {
    const rows = await this.manager.getRepository(RunContactEventEntity).find({
      select: { name: true, occurredAt: true },
      where: { contactId },
    });
    const events = new Map<string, string[]>();
    for (const row of rows) {
      const times = events.get(row.name) ?? [];
      times.push(row.occurredAt.toISOString());
      events.set(row.name, times);
    }
    return events;
  }

  async setTimer(timer: Omit<RunTimerEntity, 'dueAt'> & { dueAt: string }): Promise<void> {
    await this.manager.query(
      `INSERT INTO run_timers (id, workspace_id, run_id, contact_id, due_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO NOTHING`,
      [timer.id, timer.workspaceId, timer.runId, timer.contactId, timer.dueAt],
    );
    await signalOnCommit(this.manager, RUN_TIMERS_SIGNAL);
  }

  async cancelTimer(id: string): Promise<void> {
    await this.manager.query('DELETE FROM run_timers WHERE id = $1', [id]);
  }

  async recordOutcome(outcome: OutcomeEntity): Promise<void> {
    await this.manager.getRepository(OutcomeEntity).save(outcome);
  }
}
