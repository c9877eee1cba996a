import { upsertEntities } from '@cms/persistence';
import { signalOnCommit } from '@cms/service-kit';
import { In, type EntityManager } from 'typeorm';

import { BotEntity } from '../bots/bot.entity';
import type { RunMessage, RunState, RunWorkflow } from '../engine/run-engine';
import { WorkflowEntity, WorkflowVersionEntity } from '../workflows/workflow.entity';
import {
  OutcomeEntity,
  RunContactEventEntity,
  RunIdCounterEntity,
  RunMessageEntity,
  RunTimerEntity,
  WorkflowRunEntity,
} from './run.entity';

/** Run ids interleave the partitions of the requests topic: `next × RUN_ID_PARTITIONS + partition + 1`. */
export const RUN_ID_PARTITIONS = 256;

/** The commit signal that wakes the timer worker: sent by the transaction that sets a timer. */
export const RUN_TIMERS_SIGNAL = 'run_timers';

const GOING = new Set(['active', 'waiting']);

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

function triggerKey(workspaceId: number, eventName: string): string {
  return `${workspaceId}:${eventName}`;
}

/** The event a workflow's trigger names. */
function workflowTrigger(workflow: WorkflowEntity): string {
  return (workflow.trigger as { event: string }).event;
}

/** What a run of inputs will read, fetched up front in a few statements. */
export interface RunBookPrefetch {
  /** Contacts whose runs an event may move or start. */
  contacts: number[];
  /** Runs a timer or a message names. */
  runs: number[];
  /** Partitions new runs are numbered in. */
  partitions: number[];
  /** The events recorded, whose workflows and bots they may start. */
  events?: Array<{ workspaceId: number; name: string }>;
}

/**
 * The rows runs are made of, as a run of inputs reads and changes them: read in a few statements up
 * front (and on demand for the rest), kept in memory while the inputs are decided one after the other
 * in their order, and written at the end with a statement or two per table, in the inputs'
 * transaction. What one input changed, the next one reads.
 */
export class RunBook {
  private readonly runs = new Map<number, WorkflowRunEntity>();
  /** The contacts whose every run is in `runs`. */
  private readonly contactsLoaded = new Set<number>();
  private readonly runsByContact = new Map<number, Set<number>>();
  private readonly messages = new Map<number, Map<string, RunMessageEntity>>();
  private readonly events = new Map<number, Map<string, string[]>>();
  private readonly counters = new Map<number, number>();
  private readonly triggers = new Map<string, WorkflowEntity[]>();
  /** The enabled bots of a workspace, oldest first. */
  private readonly bots = new Map<number, BotEntity[]>();
  private readonly versions = new Map<string, RunWorkflow | null>();
  private readonly dirtyRuns = new Set<number>();
  private readonly dirtyMessages = new Map<string, RunMessageEntity>();
  private readonly newEvents: RunContactEventEntity[] = [];
  private readonly dirtyCounters = new Set<number>();
  /** Timers to set (a row) or to remove (null), by id. */
  private readonly timers = new Map<string, RunTimerEntity | null>();
  private readonly outcomes: OutcomeEntity[] = [];

  constructor(private readonly manager: EntityManager) {}

  async prefetch(wanted: RunBookPrefetch): Promise<void> {
    const contacts = wanted.contacts.filter((id) => !this.contactsLoaded.has(id));
    const ids = wanted.runs.filter((id) => !this.runs.has(id));
    const repository = this.manager.getRepository(WorkflowRunEntity);
    // One after the other: the statements share the transaction's connection.
    const byContact = contacts.length === 0 ? [] : await repository.findBy({ contactId: In(contacts) });
    const byId = ids.length === 0 ? [] : await repository.findBy({ id: In(ids) });
    const counters =
      wanted.partitions.length === 0
        ? []
        : await this.manager.getRepository(RunIdCounterEntity).findBy({ partition: In(wanted.partitions) });
    for (const row of [...byContact, ...byId]) this.keep(row);
    for (const id of contacts) this.contactsLoaded.add(id);
    for (const counter of counters) this.counters.set(counter.partition, counter.next);
    for (const partition of wanted.partitions)
      if (!this.counters.has(partition)) this.counters.set(partition, 0);
    await this.loadMessages([...this.runs.keys()].filter((id) => !this.messages.has(id)));
    const events = wanted.events ?? [];
    await this.loadTriggers(events);
    await this.loadBots(events.map((event) => event.workspaceId));
  }

  /**
   * The enabled workflows listening for the events' names, for every event of a run of inputs in one
   * statement. They do not change within a run of inputs: workflow writes are other records, which end
   * it (so do bot writes, for loadBots).
   */
  private async loadTriggers(events: ReadonlyArray<{ workspaceId: number; name: string }>): Promise<void> {
    const pairs = events.filter((event) => !this.triggers.has(triggerKey(event.workspaceId, event.name)));
    if (pairs.length === 0) return;
    const workflows = await this.manager
      .getRepository(WorkflowEntity)
      .createQueryBuilder('workflow')
      .where('workflow.workspace_id = ANY(:workspaces)', {
        workspaces: [...new Set(pairs.map((pair) => pair.workspaceId))],
      })
      .andWhere('workflow.enabled')
      .andWhere("workflow.trigger ->> 'event' = ANY(:names)", {
        names: [...new Set(pairs.map((pair) => pair.name))],
      })
      .orderBy('workflow.id')
      .getMany();
    for (const { workspaceId, name } of pairs) this.triggers.set(triggerKey(workspaceId, name), []);
    for (const workflow of workflows) {
      this.triggers.get(triggerKey(workflow.workspaceId, workflowTrigger(workflow)))?.push(workflow);
    }
  }

  /** The enabled bots of the workspaces, in one statement. */
  private async loadBots(workspaceIds: readonly number[]): Promise<void> {
    const workspaces = [...new Set(workspaceIds)].filter((id) => !this.bots.has(id));
    if (workspaces.length === 0) return;
    const bots = await this.manager
      .getRepository(BotEntity)
      .find({ where: { workspaceId: In(workspaces), enabled: true }, order: { id: 'ASC' } });
    for (const id of workspaces) this.bots.set(id, []);
    for (const bot of bots) this.bots.get(bot.workspaceId)!.push(bot);
  }

  /** The enabled bots of the workspace, oldest first (the bots an event may start are among them). */
  async botsOf(workspaceId: number): Promise<BotEntity[]> {
    await this.loadBots([workspaceId]);
    return this.bots.get(workspaceId)!;
  }

  private keep(row: WorkflowRunEntity): void {
    if (this.runs.has(row.id)) return;
    this.runs.set(row.id, row);
    let ofContact = this.runsByContact.get(row.contactId);
    if (!ofContact) this.runsByContact.set(row.contactId, (ofContact = new Set()));
    ofContact.add(row.id);
  }

  private async loadMessages(runIds: number[]): Promise<void> {
    if (runIds.length === 0) return;
    for (const id of runIds) this.messages.set(id, new Map());
    const rows = await this.manager.getRepository(RunMessageEntity).findBy({ runId: In(runIds) });
    for (const row of rows) this.messages.get(row.runId)!.set(row.messageId, row);
  }

  private async loadContact(contactId: number): Promise<void> {
    if (this.contactsLoaded.has(contactId)) return;
    await this.prefetch({ contacts: [contactId], runs: [], partitions: [] });
  }

  /** The enabled workflows of the workspace whose trigger is `eventName`, oldest first. */
  async triggeredBy(workspaceId: number, eventName: string): Promise<WorkflowEntity[]> {
    await this.loadTriggers([{ workspaceId, name: eventName }]);
    return this.triggers.get(triggerKey(workspaceId, eventName))!;
  }

  /**
   * The version a run runs on, with the workflow's name now (messages and outcomes carry the name when
   * they are made; a deleted workflow's last name).
   */
  async workflowOf(workflowId: number, version: number): Promise<RunWorkflow | null> {
    const key = `${workflowId}:${version}`;
    if (this.versions.has(key)) return this.versions.get(key)!;
    const stored = await this.manager.getRepository(WorkflowVersionEntity).findOneBy({ workflowId, version });
    const current = await this.manager.getRepository(WorkflowEntity).findOneBy({ id: workflowId });
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
  async goingRunsOf(workspaceId: number, contactId: number): Promise<WorkflowRunEntity[]> {
    return (await this.runsOfContact(contactId)).filter(
      (row) => row.workspaceId === workspaceId && GOING.has(row.status),
    );
  }

  /** Every run the contact had of the workflow (re_entry reads them all). */
  async runsOf(contactId: number, workflowId: number): Promise<WorkflowRunEntity[]> {
    return (await this.runsOfContact(contactId)).filter((row) => row.workflowId === workflowId);
  }

  private async runsOfContact(contactId: number): Promise<WorkflowRunEntity[]> {
    await this.loadContact(contactId);
    return [...(this.runsByContact.get(contactId) ?? [])]
      .sort((left, right) => left - right)
      .map((id) => this.runs.get(id)!);
  }

  async runInWorkspace(workspaceId: number, id: number): Promise<WorkflowRunEntity | null> {
    if (!this.runs.has(id)) await this.prefetch({ contacts: [], runs: [id], partitions: [] });
    const row = this.runs.get(id);
    return row && row.workspaceId === workspaceId ? row : null;
  }

  async goingRunsOfWorkflow(workflowId: number): Promise<WorkflowRunEntity[]> {
    const rows = await this.manager.getRepository(WorkflowRunEntity).find({
      where: { workflowId, status: In([...GOING]) },
      order: { id: 'ASC' },
    });
    for (const row of rows) this.keep(row);
    return rows.map((row) => this.runs.get(row.id)!).filter((row) => GOING.has(row.status));
  }

  /** A new run's id: the partition's next, numbered in the order the partition's records come. */
  async nextRunId(partition: number): Promise<number> {
    if (!this.counters.has(partition))
      await this.prefetch({ contacts: [], runs: [], partitions: [partition] });
    const next = this.counters.get(partition)! + 1;
    this.counters.set(partition, next);
    this.dirtyCounters.add(partition);
    return (next - 1) * RUN_ID_PARTITIONS + partition + 1;
  }

  saveRun(state: RunState, workspaceId: number): void {
    const row = runRow(state, workspaceId);
    // The run as it is now replaces the row read (it keeps its place among its contact's runs).
    this.runs.delete(row.id);
    this.keep(row);
    if (!this.messages.has(row.id)) this.messages.set(row.id, new Map());
    this.dirtyRuns.add(row.id);
  }

  /** The run's messages as their facts left them (made ones first reported `queued`). */
  async messagesOf(runId: number): Promise<RunMessage[]> {
    if (!this.messages.has(runId)) await this.loadMessages([runId]);
    return [...this.messages.get(runId)!.values()].map((row) => ({
      message_id: row.messageId,
      step: row.step,
      made_at: row.madeAt.toISOString(),
      status: row.status,
      clicked: row.clicked,
      channel: row.channel,
    }));
  }

  private async message(runId: number, messageId: string): Promise<RunMessageEntity | undefined> {
    if (!this.messages.has(runId)) await this.loadMessages([runId]);
    return this.messages.get(runId)!.get(messageId);
  }

  private putMessage(row: RunMessageEntity): void {
    this.messages.get(row.runId)!.set(row.messageId, row);
    this.dirtyMessages.set(row.messageId, row);
  }

  async messageMade(runId: number, step: string, messageId: string, at: string): Promise<void> {
    if (await this.message(runId, messageId)) return;
    this.putMessage(
      Object.assign(new RunMessageEntity(), {
        messageId,
        runId,
        step,
        madeAt: new Date(at),
        status: 'queued',
        clicked: false,
        channel: null,
      }),
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
    const stored = await this.message(report.runId, report.messageId);
    this.putMessage(
      Object.assign(new RunMessageEntity(), {
        messageId: report.messageId,
        runId: report.runId,
        step: stored?.step ?? report.step,
        madeAt: stored?.madeAt ?? new Date(report.at),
        status: report.status ?? stored?.status ?? 'queued',
        clicked: (stored?.clicked ?? false) || report.clicked === true,
        channel: report.channel ?? stored?.channel ?? null,
      }),
    );
  }

  async eventRecorded(event: {
    id: number;
    contactId: number;
    name: string;
    occurredAt: string;
  }): Promise<void> {
    const row = Object.assign(new RunContactEventEntity(), {
      eventId: event.id,
      contactId: event.contactId,
      name: event.name,
      occurredAt: new Date(event.occurredAt),
    });
    this.newEvents.push(row);
    const known = this.events.get(event.contactId);
    if (known) known.set(event.name, [...(known.get(event.name) ?? []), event.occurredAt]);
  }

  /** The occurred_at (ISO 8601) of each of the contact's events, by name, those of this run of inputs too. */
  async eventsOf(contactId: number): Promise<Map<string, string[]>> {
    let events = this.events.get(contactId);
    if (events === undefined) {
      const rows = await this.manager.getRepository(RunContactEventEntity).findBy({ contactId });
      const seen = new Set(rows.map((row) => row.eventId));
      events = new Map();
      for (const row of [
        ...rows,
        ...this.newEvents.filter((event) => event.contactId === contactId && !seen.has(event.eventId)),
      ]) {
        events.set(row.name, [...(events.get(row.name) ?? []), row.occurredAt.toISOString()]);
      }
      this.events.set(contactId, events);
    }
    return events;
  }

  setTimer(timer: {
    id: string;
    workspaceId: number;
    runId: number;
    contactId: number;
    dueAt: string;
    readsContact: boolean;
  }): void {
    this.timers.set(
      timer.id,
      Object.assign(new RunTimerEntity(), { ...timer, dueAt: new Date(timer.dueAt) }),
    );
  }

  cancelTimer(id: string): void {
    this.timers.set(id, null);
  }

  recordOutcome(outcome: OutcomeEntity): void {
    this.outcomes.push(outcome);
  }

  /** Writes what the inputs changed, in their transaction. */
  async flush(): Promise<void> {
    const { manager } = this;
    await upsertEntities(
      manager,
      WorkflowRunEntity,
      [...this.dirtyRuns].map((id) => this.runs.get(id)!),
    );
    await upsertEntities(manager, RunMessageEntity, [...this.dirtyMessages.values()]);
    await upsertEntities(manager, RunContactEventEntity, this.newEvents);
    await upsertEntities(
      manager,
      RunIdCounterEntity,
      [...this.dirtyCounters].map((partition) =>
        Object.assign(new RunIdCounterEntity(), { partition, next: this.counters.get(partition)! }),
      ),
    );
    await upsertEntities(manager, OutcomeEntity, this.outcomes);
    const removed = [...this.timers].filter(([, timer]) => timer === null).map(([id]) => id);
    if (removed.length > 0)
      await manager.query('DELETE FROM run_timers WHERE id = ANY($1::text[])', [removed]);
    const set = [...this.timers.values()].filter((timer): timer is RunTimerEntity => timer !== null);
    if (set.length > 0) {
      await upsertEntities(manager, RunTimerEntity, set);
      await signalOnCommit(manager, RUN_TIMERS_SIGNAL);
    }
  }
}
