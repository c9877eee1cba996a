import {
  branchCriteriaOptions,
  deterministicId,
  messageIdOfRecord,
  parseFilterDuration,
  readWorkflowCriteria,
  type BranchStep,
  type FilterDuration,
  type RouteStep,
  type MessagePurpose,
  type WorkflowCriteria,
  type WorkflowDefinition,
  type WorkflowStep,
} from '@cms/contracts';

import {
  matchesCriteria,
  readsContact,
  readsContactEvents,
  type CriteriaContact,
  type CriteriaSubject,
  type StepMessageFacts,
} from './criteria';
import { addDuration, nextTimeOfDay, untilDateInstant } from './wait-times';

/**
 * The state machine of a workflow run (extensions §12, "Steps at run time"): from a run and what
 * happened to it, the run's next state and the effects the service must carry out. Pure: every time
 * is the one of the record that moved the run, and every id an effect carries is derived from the run
 * id, the step id and how many times that step ran in the run, so a rebuild makes the same ones.
 */

/** A run that runs this many steps without waiting ends `failed` (`step_limit`). */
export const MAX_STEPS_WITHOUT_WAITING = 100;

export type RunStatus = 'active' | 'waiting' | 'completed' | 'goal_reached' | 'exited' | 'failed';
export const ENDED_STATUSES: readonly RunStatus[] = ['completed', 'goal_reached', 'exited', 'failed'];

export interface RunEvent {
  id: number;
  name: string;
  data: Record<string, unknown>;
}

export interface RunHistoryEntry {
  /** The step run, or where an outside end found the run (null after its last step). */
  step: string | null;
  at: string;
  /**
   * `queued`, `waited`, `event`, `timeout`, `updated`, `exited`, a branch's chosen step id (`end`
   * when it chose to go past the last step), or an end: `goal_reached`, `replaced`,
   * `workflow_deleted`, `invalid_date`, `step_limit`.
   */
  result: string;
  message_id: string | null;
}

/** What a waiting run waits for; every wait has a timer (an until_event's is its timeout). */
export type RunWait =
  | { kind: 'time'; step: string; timer_id: string; due_at: string }
  | { kind: 'event'; step: string; event: string; timer_id: string; due_at: string }
  /** After the last step of a workflow with a goal: the goal event, or `within` since the start. */
  | { kind: 'goal'; timer_id: string; due_at: string };

export interface RunState {
  id: number;
  workflow_id: number;
  version: number;
  contact_id: number;
  status: RunStatus;
  current_step: string | null;
  trigger_event: RunEvent;
  waited_event: RunEvent | null;
  started_at: string;
  ended_at: string | null;
  history: RunHistoryEntry[];
  waiting_for: RunWait | null;
  /** `started_at` + the goal's `within`; null without a goal. */
  goal_deadline: string | null;
}

/** The workflow version a run runs on. */
export interface RunWorkflow {
  id: number;
  /** Its name now: messages and outcomes carry the name when they are made. */
  name: string;
  version: number;
  definition: Pick<WorkflowDefinition, 'steps' | 'goal'>;
}

/** A message the run made, as the messaging facts left it. */
export interface RunMessage {
  message_id: string;
  /** The step that made it (after a fallback, the route's later messages carry the same step). */
  step: string;
  /** When it was made (ISO 8601): the latest made wins among equals. */
  made_at: string;
  status: string;
  /** A human click on any of its tracked links. */
  clicked: boolean;
  /** Its channel type. */
  channel: string | null;
}

/** What a run reads besides itself: the contact as the moving record left it, its events and messages. */
export interface RunContext {
  contact: CriteriaContact;
  eventsNamed(name: string): readonly string[];
  messages: readonly RunMessage[];
}

export type Happening =
  | { kind: 'timer_due'; timer_id: string; at: string }
  /** An event of the run's contact, recorded after the run started. */
  | { kind: 'event_recorded'; event: RunEvent; occurred_at: string; at: string }
  /** A new run of the same workflow for the contact (re_entry `always`). */
  | { kind: 'replaced'; at: string }
  | { kind: 'workflow_deleted'; at: string };

export interface TemplateScope {
  event: RunEvent;
  vars: Record<string, unknown>;
  waited_event: RunEvent | null;
}

export interface WorkflowReference {
  id: number;
  name: string;
  run_id: number;
  step: string;
}

export type RunEffect =
  | {
      type: 'send_message';
      step: string;
      /** The id of the message.send.requested record the step appends. */
      request_id: string;
      /** `msg_` and 32 hex digits: the message that record makes (messageIdOfRecord). */
      message_id: string;
      contact_id: number;
      route: RouteStep[];
      purpose: MessagePurpose;
      variables: Record<string, unknown>;
      template_scope: TemplateScope;
      workflow: WorkflowReference;
    }
  | {
      type: 'update_contact';
      step: string;
      request_id: string;
      contact_id: number;
      data: Record<string, unknown>;
      add_tags: number[];
      remove_tags: number[];
    }
  | {
      type: 'set_timer';
      timer_id: string;
      due_at: string;
      purpose: 'wait' | 'event_timeout' | 'goal_deadline';
    }
  | { type: 'cancel_timer'; timer_id: string }
  | {
      type: 'record_outcome';
      /** The run's id: a run reaches its goal once. */
      outcome_id: number;
      goal: { event: string; within: string };
      workflow: { id: number; name: string; run_id: number };
      contact_id: number;
      credited_message_id: string | null;
      channel: string | null;
      event: { id: number; data: Record<string, unknown> };
      occurred_at: string;
      created_at: string;
    };

export interface Advance {
  state: RunState;
  effects: RunEffect[];
}

export interface RunStart {
  run_id: number;
  contact_id: number;
  event: RunEvent;
  /** When the trigger event was recorded. */
  at: string;
}

/** A new run at the workflow's first step, run as far as it goes before it must wait. */
export function startRun(workflow: RunWorkflow, start: RunStart, context: RunContext): Advance {
  const first = workflow.definition.steps[0];
  if (first === undefined) throw new Error(`workflow ${workflow.id} has no steps`);
  const goal = workflow.definition.goal;
  const state: RunState = {
    id: start.run_id,
    workflow_id: workflow.id,
    version: workflow.version,
    contact_id: start.contact_id,
    status: 'active',
    current_step: first.id,
    trigger_event: start.event,
    waited_event: null,
    started_at: start.at,
    ended_at: null,
    history: [],
    waiting_for: null,
    goal_deadline: goal === null ? null : iso(addDuration(Date.parse(start.at), duration(goal.within))),
  };
  return new RunStepper(workflow, state, context, start.at).from(first.id);
}

/** The run moved by what happened; what does not concern it leaves it as it is, with no effects. */
export function advance(
  state: RunState,
  workflow: RunWorkflow,
  happening: Happening,
  context: RunContext,
): Advance {
  const unchanged: Advance = { state, effects: [] };
  if (ENDED_STATUSES.includes(state.status)) return unchanged;
  const stepper = new RunStepper(workflow, state, context, happening.at);
  const waiting = state.waiting_for;
  switch (happening.kind) {
    case 'replaced':
    case 'workflow_deleted':
      return stepper.endFromOutside('exited', happening.kind);
    case 'event_recorded': {
      const goal = workflow.definition.goal;
      if (
        goal !== null &&
        happening.event.name === goal.event &&
        state.goal_deadline !== null &&
        Date.parse(happening.at) <= Date.parse(state.goal_deadline)
      ) {
        return stepper.reachGoal(happening.event, happening.occurred_at);
      }
      if (waiting?.kind !== 'event' || waiting.event !== happening.event.name) return unchanged;
      stepper.record(waiting.step, 'event');
      stepper.cancelWait();
      stepper.state.waited_event = happening.event;
      return stepper.from(stepper.following(waiting.step));
    }
    case 'timer_due': {
      if (waiting === null || waiting.timer_id !== happening.timer_id) return unchanged;
      stepper.state.waiting_for = null;
      switch (waiting.kind) {
        case 'time':
          stepper.record(waiting.step, 'waited');
          return stepper.from(stepper.following(waiting.step));
        case 'event': {
          stepper.record(waiting.step, 'timeout');
          stepper.state.waited_event = null;
          const step = stepper.step(waiting.step);
          const timeoutNext = 'until_event' in step ? step.until_event.timeout_next : undefined;
          return stepper.from(timeoutNext ?? stepper.following(waiting.step));
        }
        case 'goal':
          return stepper.end('completed');
      }
    }
  }
}

function iso(instant: number): string {
  return new Date(instant).toISOString();
}

function duration(text: string): FilterDuration {
  const parsed = parseFilterDuration(text);
  if (parsed === null) throw new Error(`"${text}" is not an ISO 8601 duration`);
  return parsed;
}

/** A message's engagement, strongest highest; 0 is none (queued, failed, suppressed). */
function engagement(message: RunMessage): number {
  if (message.clicked) return 4;
  return { read: 3, delivered: 2, sent: 1 }[message.status] ?? 0;
}

/** §12: the strongest engagement (clicked, read, delivered, sent), the latest made among equals. */
export function creditedMessage(messages: readonly RunMessage[]): RunMessage | null {
  let best: RunMessage | null = null;
  for (const message of messages) {
    const strength = engagement(message);
    if (strength === 0) continue;
    const bestStrength = best === null ? 0 : engagement(best);
    if (strength > bestStrength || (strength === bestStrength && message.made_at >= best!.made_at))
      best = message;
  }
  return best;
}

/** The latest message a step made in the run; a step that made none reads status null and no click. */
export function stepMessageFacts(messages: readonly RunMessage[], step: string): StepMessageFacts {
  let latest: RunMessage | null = null;
  for (const message of messages) {
    if (message.step === step && (latest === null || message.made_at >= latest.made_at)) latest = message;
  }
  return latest === null
    ? { status: null, clicked: false }
    : { status: latest.status, clicked: latest.clicked };
}

const branchCriteria = new WeakMap<BranchStep, WorkflowCriteria[]>();

/** A branch's cases as criteria trees, read once per step object. */
function casesOf(step: BranchStep, stepIds: readonly string[]): WorkflowCriteria[] {
  let criteria = branchCriteria.get(step);
  if (criteria === undefined) {
    criteria = step.cases.map((item, index) => {
      const reading = readWorkflowCriteria(
        item.if,
        `/steps/${step.id}/cases/${index}/if`,
        branchCriteriaOptions(stepIds),
      );
      if (!reading.ok) throw new Error(`branch ${step.id} has criteria that cannot be read`);
      return reading.criteria;
    });
    branchCriteria.set(step, criteria);
  }
  return criteria;
}

/**
 * Whether a version's runs read their messages: a `branch` step reads their statuses and clicks, a
 * goal credits one of them. Runs of any other version never do.
 */
export function readsRunMessages(definition: Pick<RunWorkflow['definition'], 'steps' | 'goal'>): boolean {
  return definition.goal !== null || definition.steps.some((step) => step.type === 'branch');
}

/**
 * Whether a version's runs read the contact when a timer moves them: a branch whose criteria read its
 * fields, data, tags, consent or channels, or an `until_date` wait (a template over the contact). Runs
 * of any other version never do, so their timers fire without the contact.
 */
export function readsRunContact(workflow: Pick<RunWorkflow, 'definition'>): boolean {
  const { steps } = workflow.definition;
  const ids = steps.map((step) => step.id);
  return steps.some(
    (step) =>
      (step.type === 'wait' && 'until_date' in step) ||
      (step.type === 'branch' && casesOf(step, ids).some(readsContact)),
  );
}

/** Whether a branch of the workflow reads the contact's events. */
export function branchesReadEvents(workflow: RunWorkflow): boolean {
  const { steps } = workflow.definition;
  const ids = steps.map((step) => step.id);
  return steps
    .filter((step): step is BranchStep => step.type === 'branch')
    .some((step) => casesOf(step, ids).some(readsContactEvents));
}

/** One move of a run: steps run from a copy of the state, effects collected in order. */
class RunStepper {
  readonly state: RunState;
  private readonly effects: RunEffect[] = [];
  private readonly steps: readonly WorkflowStep[];
  /** The run's messages: those its facts reported, and those this move made (queued). */
  private readonly messages: RunMessage[];

  constructor(
    private readonly workflow: RunWorkflow,
    state: RunState,
    private readonly context: RunContext,
    private readonly at: string,
  ) {
    this.state = { ...state, history: [...state.history] };
    this.steps = workflow.definition.steps;
    this.messages = [...context.messages];
  }

  step(id: string): WorkflowStep {
    const step = this.steps.find((candidate) => candidate.id === id);
    if (step === undefined) throw new Error(`workflow ${this.workflow.id} has no step "${id}"`);
    return step;
  }

  /** The step after `id`: its `next`, else the one below it; null past the last step. */
  following(id: string): string | null {
    const step = this.step(id);
    if ('next' in step && step.next !== undefined) return step.next;
    const index = this.steps.indexOf(step);
    return this.steps[index + 1]?.id ?? null;
  }

  private below(id: string): string | null {
    return this.steps[this.steps.findIndex((step) => step.id === id) + 1]?.id ?? null;
  }

  /** Runs steps from `id` until the run waits or ends. */
  from(id: string | null): Advance {
    this.state.status = 'active';
    let current = id;
    for (let ran = 0; current !== null; ran += 1) {
      if (ran === MAX_STEPS_WITHOUT_WAITING) {
        this.state.current_step = current;
        this.record(current, 'step_limit');
        return this.end('failed');
      }
      this.state.current_step = current;
      const next = this.run(this.step(current));
      if (next === 'stopped') return this.done();
      current = next;
    }
    return this.afterLastStep();
  }

  /** Runs one step: the step to go on with, null past the last, or `stopped` when the run waits or ended. */
  private run(step: WorkflowStep): string | null | 'stopped' {
    switch (step.type) {
      case 'send': {
        const requestId = this.idFor(step.id, 'send');
        const messageId = messageIdOfRecord(requestId);
        const variables = step.variables ?? {};
        // Unless its facts came already (a step run again after a crash is the same message).
        if (!this.messages.some((message) => message.message_id === messageId))
          this.messages.push({
            message_id: messageId,
            step: step.id,
            made_at: this.at,
            status: 'queued',
            clicked: false,
            channel: null,
          });
        this.effects.push({
          type: 'send_message',
          step: step.id,
          request_id: requestId,
          message_id: messageId,
          contact_id: this.state.contact_id,
          route: step.route,
          purpose: step.purpose ?? 'transactional',
          variables,
          template_scope: {
            event: this.state.trigger_event,
            vars: variables,
            waited_event: this.state.waited_event,
          },
          workflow: { id: this.workflow.id, name: this.workflow.name, run_id: this.state.id, step: step.id },
        });
        this.record(step.id, 'queued', messageId);
        return this.following(step.id);
      }
      case 'wait':
        return this.wait(step);
      case 'branch': {
        const chosen = this.branch(step);
        this.record(step.id, chosen ?? 'end');
        return chosen;
      }
      case 'update_contact':
        this.effects.push({
          type: 'update_contact',
          step: step.id,
          request_id: this.idFor(step.id, 'update_contact'),
          contact_id: this.state.contact_id,
          data: step.data ?? {},
          add_tags: step.add_tags ?? [],
          remove_tags: step.remove_tags ?? [],
        });
        this.record(step.id, 'updated');
        return this.following(step.id);
      case 'exit':
        this.record(step.id, 'exited');
        this.end('exited');
        return 'stopped';
    }
  }

  private wait(step: Extract<WorkflowStep, { type: 'wait' }>): string | null | 'stopped' {
    const at = Date.parse(this.at);
    const timerId = this.idFor(step.id, 'timer');
    if ('until_event' in step) {
      const dueAt = iso(addDuration(at, duration(step.until_event.timeout)));
      this.waitFor({
        kind: 'event',
        step: step.id,
        event: step.until_event.event,
        timer_id: timerId,
        due_at: dueAt,
      });
      this.effects.push({ type: 'set_timer', timer_id: timerId, due_at: dueAt, purpose: 'event_timeout' });
      return 'stopped';
    }
    let due: number | null;
    if ('duration' in step) due = addDuration(at, duration(step.duration));
    else if ('until' in step) due = nextTimeOfDay(at, step.until.time_of_day, step.until.timezone);
    else {
      due = untilDateInstant(step.until_date, step.offset, {
        contact: { ...this.context.contact },
        event: { ...this.state.trigger_event },
      });
      if (due === null) {
        this.record(step.id, 'invalid_date');
        this.end('failed');
        return 'stopped';
      }
    }
    if (due <= at) {
      this.record(step.id, 'waited');
      return this.following(step.id);
    }
    this.waitFor({ kind: 'time', step: step.id, timer_id: timerId, due_at: iso(due) });
    this.effects.push({ type: 'set_timer', timer_id: timerId, due_at: iso(due), purpose: 'wait' });
    return 'stopped';
  }

  /** The `next` of the first case whose criteria all hold, else `else`, else the step below. */
  private branch(step: BranchStep): string | null {
    const subject: CriteriaSubject = {
      contact: this.context.contact,
      eventsNamed: (name) => this.context.eventsNamed(name),
      event: { data: this.state.trigger_event.data },
      waitedEvent: this.state.waited_event === null ? null : { data: this.state.waited_event.data },
      messages: (stepId) => stepMessageFacts(this.messages, stepId),
    };
    const now = Date.parse(this.at);
    const cases = casesOf(
      step,
      this.steps.map((candidate) => candidate.id),
    );
    const index = cases.findIndex((criteria) => matchesCriteria(criteria, subject, now));
    if (index !== -1) return step.cases[index]!.next;
    return step.else ?? this.below(step.id);
  }

  /** Past the last step: completed, or waiting for the goal until `within` has passed since the start. */
  private afterLastStep(): Advance {
    this.state.current_step = null;
    const deadline = this.state.goal_deadline;
    if (deadline === null || Date.parse(deadline) <= Date.parse(this.at)) return this.end('completed');
    const timerId = deterministicId(String(this.state.id), 'goal-deadline');
    this.waitFor({ kind: 'goal', timer_id: timerId, due_at: deadline });
    this.effects.push({ type: 'set_timer', timer_id: timerId, due_at: deadline, purpose: 'goal_deadline' });
    return this.done();
  }

  reachGoal(event: RunEvent, occurredAt: string): Advance {
    const goal = this.workflow.definition.goal!;
    const credited = creditedMessage(this.messages);
    this.record(this.state.current_step, 'goal_reached');
    this.cancelWait();
    this.effects.push({
      type: 'record_outcome',
      outcome_id: this.state.id,
      goal: { event: goal.event, within: goal.within },
      workflow: { id: this.workflow.id, name: this.workflow.name, run_id: this.state.id },
      contact_id: this.state.contact_id,
      credited_message_id: credited?.message_id ?? null,
      channel: credited?.channel ?? null,
      event: { id: event.id, data: event.data },
      occurred_at: occurredAt,
      created_at: this.at,
    });
    return this.end('goal_reached');
  }

  /** An end from outside (`replaced`, `workflow_deleted`): a last entry with the step the run was at. */
  endFromOutside(status: 'exited', result: 'replaced' | 'workflow_deleted'): Advance {
    this.record(this.state.current_step, result);
    this.cancelWait();
    return this.end(status);
  }

  cancelWait(): void {
    const waiting = this.state.waiting_for;
    if (waiting !== null) this.effects.push({ type: 'cancel_timer', timer_id: waiting.timer_id });
    this.state.waiting_for = null;
  }

  record(step: string | null, result: string, messageId: string | null = null): void {
    this.state.history.push({ step, at: this.at, result, message_id: messageId });
  }

  end(status: Exclude<RunStatus, 'active' | 'waiting'>): Advance {
    Object.assign(this.state, { status, current_step: null, ended_at: this.at, waiting_for: null });
    return this.done();
  }

  private waitFor(wait: RunWait): void {
    Object.assign(this.state, { status: 'waiting', waiting_for: wait });
  }

  private done(): Advance {
    return { state: this.state, effects: this.effects };
  }

  /** An id for the step's current run: the number of entries the step has in history counts its runs. */
  private idFor(stepId: string, purpose: string): string {
    const runs = this.state.history.filter((entry) => entry.step === stepId).length;
    return deterministicId(String(this.state.id), stepId, runs + 1, purpose);
  }
}
