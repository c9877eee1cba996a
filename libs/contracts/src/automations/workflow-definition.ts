import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

import { EVENT_NAME_PATTERN } from '../contacts/event.bodies';
import {
  MAX_ROUTE_STEPS,
  MESSAGE_PURPOSES,
  RouteStepBody,
  routeProblems,
  type MessagePurpose,
} from '../messaging/message.bodies';
import { isId, jsonBytes, MAX_DATA_BYTES } from '../rules/field-rules';
import {
  parseFilterDuration,
  readFilterCriteria,
  type CriteriaReading,
  type ExtendedCondition,
  type ExtendedNode,
  type FilterCriteriaOptions,
  type FilterDuration,
  type FilterProblem,
} from '../segments/filter-criteria';

/**
 * A workflow's definition (extensions §12) as `POST` and `PATCH /api/v1/workflows` carry it, read into
 * the value that is stored and answered, or into every problem a 422 names with its pointer. The value
 * keeps what the client sent (criteria included, as audiences keep theirs), with the defaults of a
 * create filled in; the run engine reads the criteria again with `readWorkflowCriteria`.
 */

export const MAX_WORKFLOW_NAME = 255;
export const MAX_WORKFLOW_STEPS = 50;
export const MAX_STEP_ID = 100;
/** The longest `goal.within` and `until_event.timeout`. */
export const MAX_WORKFLOW_WAIT_DAYS = 90;

export const RE_ENTRIES = ['never', 'always', 'after_exit'] as const;
export type ReEntry = (typeof RE_ENTRIES)[number];
export const WORKFLOW_STEP_TYPES = ['send', 'wait', 'branch', 'update_contact', 'exit'] as const;
export type WorkflowStepType = (typeof WORKFLOW_STEP_TYPES)[number];

/** Why `audience` is refused in a workflow's criteria (docs/api-notes.md, "Workflows (§12)"). */
export const WORKFLOW_AUDIENCE_REFUSAL =
  'workflows cannot read audience membership: use the conditions of the audience instead';

/** The criteria as the client wrote them (an array of conditions and groups, §11). */
export type RawCriteria = unknown[];

export interface WorkflowTrigger {
  event: string;
  filter: RawCriteria;
}

export interface WorkflowGoal {
  event: string;
  /** An ISO 8601 duration, more than zero and at most P90D. */
  within: string;
}

interface StepBase {
  id: string;
  /** The step to go on with; the following one when absent. */
  next?: string;
}

export interface RouteStep {
  channel_id?: number;
  channel?: string;
  template_id: number;
  wait_for?: string;
  timeout?: string;
}

export interface SendStep extends StepBase {
  type: 'send';
  route: RouteStep[];
  /** transactional when absent. */
  purpose?: MessagePurpose;
  variables?: Record<string, unknown>;
}

export interface TimeOfDay {
  /** `HH:MM`, 24-hour. */
  time_of_day: string;
  /** An IANA time zone. */
  timezone: string;
}

export interface UntilEvent {
  event: string;
  timeout: string;
  timeout_next?: string;
}

export type WaitStep = StepBase & { type: 'wait' } & (
    | { duration: string }
    | { until: TimeOfDay }
    /** A Liquid template over `contact` and `event`; `offset` a duration, `-` allowed. */
    | { until_date: string; offset?: string }
    | { until_event: UntilEvent }
  );

export interface BranchCase {
  if: RawCriteria;
  next: string;
}

export interface BranchStep {
  id: string;
  type: 'branch';
  cases: BranchCase[];
  else?: string;
}

export interface UpdateContactStep extends StepBase {
  type: 'update_contact';
  data?: Record<string, unknown>;
  add_tags?: number[];
  remove_tags?: number[];
}

export interface ExitStep {
  id: string;
  type: 'exit';
}

export type WorkflowStep = SendStep | WaitStep | BranchStep | UpdateContactStep | ExitStep;

export interface WorkflowDefinition {
  name: string;
  enabled: boolean;
  trigger: WorkflowTrigger;
  steps: WorkflowStep[];
  goal: WorkflowGoal | null;
  re_entry: ReEntry;
}

export type WorkflowDefinitionReading<T> = { ok: true; value: T } | { ok: false; problems: FilterProblem[] };

const AT = '/data/attributes';
const TIME_OF_DAY = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const DAY_MS = 86_400_000;
const TOP_LEVEL = ['name', 'enabled', 'trigger', 'steps', 'goal', 're_entry'];
const STEP_FIELDS: Record<WorkflowStepType, readonly string[]> = {
  send: ['id', 'type', 'next', 'route', 'purpose', 'variables'],
  wait: ['id', 'type', 'next', 'duration', 'until', 'until_date', 'offset', 'until_event'],
  branch: ['id', 'type', 'cases', 'else'],
  update_contact: ['id', 'type', 'next', 'data', 'add_tags', 'remove_tags'],
  exit: ['id', 'type'],
};
const WAIT_KINDS = ['duration', 'until', 'until_date', 'until_event'] as const;

/** Trigger filters: §11 over the contact, and the trigger event's data. */
export const TRIGGER_CRITERIA_OPTIONS: FilterCriteriaOptions = {
  dataScopes: ['event'],
  refuseAudience: WORKFLOW_AUDIENCE_REFUSAL,
};

/** Branch cases: also the waited event's data and the messages the workflow's steps made. */
export function branchCriteriaOptions(stepIds: readonly string[]): FilterCriteriaOptions {
  return {
    dataScopes: ['event', 'waited_event'],
    messageSteps: stepIds,
    refuseAudience: WORKFLOW_AUDIENCE_REFUSAL,
  };
}

/** A trigger's or a branch case's criteria read into the tree the run engine evaluates. */
export function readWorkflowCriteria(
  criteria: unknown,
  pointer: string,
  options: FilterCriteriaOptions,
): CriteriaReading<ExtendedCondition> {
  return readFilterCriteria(criteria, pointer, options);
}

export type WorkflowCriteria = ExtendedNode[];

/** An ISO 8601 duration with an optional leading `-` (`until_date`'s offset). */
export function parseSignedDuration(text: unknown): { sign: 1 | -1; duration: FilterDuration } | null {
  if (typeof text !== 'string') return null;
  const negative = text.startsWith('-');
  const duration = parseFilterDuration(negative ? text.slice(1) : text);
  return duration === null ? null : { sign: negative ? -1 : 1, duration };
}

/** The longest a duration can last: a year of 366 days, a month of 31 (a limit must hold for all). */
export function longestDurationMs(duration: FilterDuration): number {
  const days = duration.years * 366 + duration.months * 31 + duration.weeks * 7 + duration.days;
  return ((days * 24 + duration.hours) * 60 + duration.minutes) * 60_000 + duration.seconds * 1000;
}

/** An IANA time zone name the runtime knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStepId(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_STEP_ID;
}

/**
 * Reads a create (`name`, `trigger`, `steps` required; `enabled`, `goal`, `re_entry` defaulted) or an
 * update (every attribute optional; what is sent follows the same rules). `body` is the attributes,
 * as the edge hands them over; every problem is collected, none stops the reading.
 */
export function readWorkflowDefinition(
  body: unknown,
  mode: 'create',
): WorkflowDefinitionReading<WorkflowDefinition>;
export function readWorkflowDefinition(
  body: unknown,
  mode: 'update',
): WorkflowDefinitionReading<Partial<WorkflowDefinition>>;
export function readWorkflowDefinition(
  body: unknown,
  mode: 'create' | 'update',
): WorkflowDefinitionReading<Partial<WorkflowDefinition>>;
export function readWorkflowDefinition(
  body: unknown,
  mode: 'create' | 'update',
): WorkflowDefinitionReading<Partial<WorkflowDefinition>> {
  if (!isObject(body)) {
    return { ok: false, problems: [{ pointer: '/data', detail: 'The request body must be a JSON object.' }] };
  }
  const reader = new DefinitionReader();
  const value = reader.definition(body, mode);
  return reader.problems.length > 0 ? { ok: false, problems: reader.problems } : { ok: true, value };
}

class DefinitionReader {
  readonly problems: FilterProblem[] = [];

  definition(body: Record<string, unknown>, mode: 'create' | 'update'): Partial<WorkflowDefinition> {
    this.unknownFields(body, TOP_LEVEL, AT);
    const creating = mode === 'create';
    const sent = (field: string): boolean => body[field] !== undefined && !(creating && body[field] === null);
    const value: Partial<WorkflowDefinition> = {};
    if (creating) Object.assign(value, { enabled: true, goal: null, re_entry: 'after_exit' });
    for (const field of ['name', 'trigger', 'steps']) {
      if (creating && (body[field] === undefined || body[field] === null)) {
        this.fail(`${AT}/${field}`, `${field} is required`);
      }
    }
    if (sent('name')) {
      const name = body.name;
      if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_WORKFLOW_NAME) {
        this.fail(`${AT}/name`, `name must be a string of 1 to ${MAX_WORKFLOW_NAME} characters, not blank`);
      } else value.name = name;
    }
    if (sent('enabled')) {
      if (typeof body.enabled !== 'boolean') this.fail(`${AT}/enabled`, 'enabled must be true or false');
      else value.enabled = body.enabled;
    }
    if (sent('trigger')) value.trigger = this.trigger(body.trigger) ?? undefined;
    if (sent('steps')) value.steps = this.steps(body.steps) ?? undefined;
    if (body.goal !== undefined) value.goal = this.goal(body.goal);
    if (sent('re_entry')) {
      if (!(RE_ENTRIES as readonly unknown[]).includes(body.re_entry)) {
        this.fail(`${AT}/re_entry`, `re_entry must be one of ${RE_ENTRIES.join(', ')}`);
      } else value.re_entry = body.re_entry as ReEntry;
    }
    return value;
  }

  private trigger(trigger: unknown): WorkflowTrigger | null {
    const at = `${AT}/trigger`;
    if (!isObject(trigger)) return this.fail(at, 'trigger must be an object with event and filter');
    this.unknownFields(trigger, ['event', 'filter'], at);
    const event = this.eventName(trigger.event, `${at}/event`);
    const filter = trigger.filter ?? [];
    this.criteria(filter, `${at}/filter`, TRIGGER_CRITERIA_OPTIONS);
    return event === null ? null : { event, filter: filter as RawCriteria };
  }

  private goal(goal: unknown): WorkflowGoal | null {
    const at = `${AT}/goal`;
    if (goal === null) return null;
    if (!isObject(goal)) return this.fail(at, 'goal must be null or an object with event and within');
    this.unknownFields(goal, ['event', 'within'], at);
    const event = this.eventName(goal.event, `${at}/event`);
    const within = this.boundedDuration(goal.within, `${at}/within`, 'within');
    return event === null || within === null ? null : { event, within };
  }

  private steps(steps: unknown): WorkflowStep[] | null {
    const at = `${AT}/steps`;
    if (!Array.isArray(steps) || steps.length === 0 || steps.length > MAX_WORKFLOW_STEPS) {
      return this.fail(at, `steps must be an array of 1 to ${MAX_WORKFLOW_STEPS} steps`);
    }
    const ids = new Set<string>();
    steps.forEach((step: unknown, index) => {
      if (!isObject(step)) return;
      const id = step.id;
      if (!isStepId(id)) {
        this.fail(`${at}/${index}/id`, `id is required: a string of 1 to ${MAX_STEP_ID} characters`);
      } else if (ids.has(id)) {
        this.fail(`${at}/${index}/id`, `id "${id}" is the id of an earlier step`);
      } else ids.add(id);
    });
    const read = steps.map((step: unknown, index) => new StepReading(this, `${at}/${index}`, ids).step(step));
    return read.every((step) => step !== null) ? read : null;
  }

  /** A reference to a step (`next`, `else`, a case's `next`, `timeout_next`) that must name one. */
  stepReference(value: unknown, pointer: string, ids: ReadonlySet<string>, field: string): string | null {
    if (typeof value !== 'string' || !ids.has(value)) {
      return this.fail(pointer, `${field} must be the id of a step of the workflow`);
    }
    return value;
  }

  eventName(value: unknown, pointer: string): string | null {
    if (typeof value !== 'string' || !EVENT_NAME_PATTERN.test(value)) {
      return this.fail(pointer, 'event must be 1 to 100 lowercase letters, digits or the characters . _ : -');
    }
    return value;
  }

  /** An ISO 8601 duration more than zero and at most P90D. */
  boundedDuration(value: unknown, pointer: string, field: string): string | null {
    const duration = parseFilterDuration(value);
    if (duration === null) return this.fail(pointer, `${field} must be an ISO 8601 duration such as P7D`);
    if (longestDurationMs(duration) > MAX_WORKFLOW_WAIT_DAYS * DAY_MS) {
      return this.fail(pointer, `${field} must be at most P${MAX_WORKFLOW_WAIT_DAYS}D`);
    }
    return duration.text;
  }

  criteria(value: unknown, pointer: string, options: FilterCriteriaOptions): void {
    const reading = readWorkflowCriteria(value, pointer, options);
    if (!reading.ok) this.problems.push(...reading.problems);
  }

  unknownFields(value: Record<string, unknown>, known: readonly string[], at: string): void {
    for (const field of Object.keys(value)) {
      if (!known.includes(field)) this.fail(`${at}/${field}`, `property ${field} should not exist`);
    }
  }

  fail(pointer: string, detail: string): null {
    this.problems.push({ pointer, detail });
    return null;
  }
}

/** One step, read for its type. */
class StepReading {
  private readonly before: number;

  constructor(
    private readonly reader: DefinitionReader,
    private readonly at: string,
    private readonly ids: ReadonlySet<string>,
  ) {
    this.before = reader.problems.length;
  }

  step(step: unknown): WorkflowStep | null {
    if (!isObject(step)) return this.reader.fail(this.at, 'a step must be an object with an id and a type');
    const type = step.type;
    if (!(WORKFLOW_STEP_TYPES as readonly unknown[]).includes(type)) {
      return this.reader.fail(`${this.at}/type`, `type must be one of ${WORKFLOW_STEP_TYPES.join(', ')}`);
    }
    const stepType = type as WorkflowStepType;
    this.reader.unknownFields(step, STEP_FIELDS[stepType], this.at);
    if (step.next !== undefined) this.reference(step.next, 'next');
    switch (stepType) {
      case 'send':
        this.send(step);
        break;
      case 'wait':
        this.wait(step);
        break;
      case 'branch':
        this.branch(step);
        break;
      case 'update_contact':
        this.updateContact(step);
        break;
      case 'exit':
        break;
    }
    return this.reader.problems.length === this.before ? (step as unknown as WorkflowStep) : null;
  }

  /** `route` and `purpose` by the rules of `POST /api/v1/messages` (§9), at this step's pointers. */
  private send(step: Record<string, unknown>): void {
    const { route, purpose, variables } = step;
    if (!Array.isArray(route) || route.length === 0 || route.length > MAX_ROUTE_STEPS) {
      this.reader.fail(`${this.at}/route`, `route must be an array of 1 to ${MAX_ROUTE_STEPS} steps`);
    } else {
      // Each route step is read on its own, so its problems keep its index.
      route.forEach((item: unknown, index) => {
        const pointer = `${this.at}/route/${index}`;
        if (!isObject(item)) {
          this.reader.fail(pointer, 'a route step must be an object');
          return;
        }
        const step = plainToInstance(RouteStepBody, item);
        const errors = validateSync(step, { whitelist: true, forbidNonWhitelisted: true });
        const problems = [...validationProblems(errors, pointer), ...routeProblems([step])];
        for (const problem of problems) {
          this.reader.fail(problem.pointer.replace(`${AT}/route/0`, pointer), problem.detail);
        }
      });
    }
    if (purpose !== undefined && !(MESSAGE_PURPOSES as readonly unknown[]).includes(purpose)) {
      this.reader.fail(`${this.at}/purpose`, 'purpose must be transactional or marketing');
    }
    if (variables !== undefined && !isObject(variables)) {
      this.reader.fail(`${this.at}/variables`, 'variables must be an object');
    }
  }

  private wait(step: Record<string, unknown>): void {
    const kinds = WAIT_KINDS.filter((kind) => step[kind] !== undefined);
    if (kinds.length !== 1) {
      this.reader.fail(this.at, `a wait takes exactly one of ${WAIT_KINDS.join(', ')}`);
      return;
    }
    if (step.offset !== undefined && kinds[0] !== 'until_date') {
      this.reader.fail(`${this.at}/offset`, 'offset goes with until_date');
    }
    switch (kinds[0]!) {
      case 'duration':
        if (parseFilterDuration(step.duration) === null) {
          this.reader.fail(`${this.at}/duration`, 'duration must be an ISO 8601 duration such as PT1H');
        }
        break;
      case 'until':
        this.until(step.until);
        break;
      case 'until_date':
        if (typeof step.until_date !== 'string' || step.until_date.trim() === '') {
          this.reader.fail(
            `${this.at}/until_date`,
            'until_date must be a Liquid template such as "{{ contact.data.renewal_date }}"',
          );
        }
        if (step.offset !== undefined && parseSignedDuration(step.offset) === null) {
          this.reader.fail(
            `${this.at}/offset`,
            'offset must be an ISO 8601 duration, "-" allowed, such as -P1D',
          );
        }
        break;
      case 'until_event':
        this.untilEvent(step.until_event);
        break;
    }
  }

  private until(until: unknown): void {
    const at = `${this.at}/until`;
    if (!isObject(until)) {
      this.reader.fail(at, 'until must be an object with time_of_day and timezone');
      return;
    }
    this.reader.unknownFields(until, ['time_of_day', 'timezone'], at);
    if (typeof until.time_of_day !== 'string' || !TIME_OF_DAY.test(until.time_of_day)) {
      this.reader.fail(`${at}/time_of_day`, 'time_of_day must be HH:MM, from 00:00 to 23:59');
    }
    if (!isTimeZone(until.timezone)) {
      this.reader.fail(`${at}/timezone`, 'timezone must be an IANA time zone such as Europe/Berlin');
    }
  }

  private untilEvent(untilEvent: unknown): void {
    const at = `${this.at}/until_event`;
    if (!isObject(untilEvent)) {
      this.reader.fail(at, 'until_event must be an object with event, timeout and timeout_next');
      return;
    }
    this.reader.unknownFields(untilEvent, ['event', 'timeout', 'timeout_next'], at);
    this.reader.eventName(untilEvent.event, `${at}/event`);
    this.reader.boundedDuration(untilEvent.timeout, `${at}/timeout`, 'timeout');
    if (untilEvent.timeout_next !== undefined) {
      this.reader.stepReference(untilEvent.timeout_next, `${at}/timeout_next`, this.ids, 'timeout_next');
    }
  }

  private branch(step: Record<string, unknown>): void {
    const cases = step.cases;
    if (!Array.isArray(cases) || cases.length === 0) {
      this.reader.fail(`${this.at}/cases`, 'cases must be a non-empty array of {if, next}');
    } else {
      const options = branchCriteriaOptions([...this.ids]);
      cases.forEach((item: unknown, index) => {
        const at = `${this.at}/cases/${index}`;
        if (!isObject(item)) {
          this.reader.fail(at, 'a case must be an object with if and next');
          return;
        }
        this.reader.unknownFields(item, ['if', 'next'], at);
        if (item.if === undefined) this.reader.fail(`${at}/if`, 'if is required: an array of criteria');
        else this.reader.criteria(item.if, `${at}/if`, options);
        this.reference(item.next, `cases/${index}/next`, 'next');
      });
    }
    if (step.else !== undefined) this.reference(step.else, 'else');
  }

  private updateContact(step: Record<string, unknown>): void {
    const { data } = step;
    if (data !== undefined) {
      if (!isObject(data)) this.reader.fail(`${this.at}/data`, 'data must be an object');
      else if (jsonBytes(data) > MAX_DATA_BYTES) {
        this.reader.fail(`${this.at}/data`, `data must be at most ${MAX_DATA_BYTES / 1024} KiB as JSON`);
      }
    }
    for (const field of ['add_tags', 'remove_tags'] as const) {
      const tags = step[field];
      if (tags === undefined) continue;
      if (!Array.isArray(tags)) {
        this.reader.fail(`${this.at}/${field}`, `${field} must be an array of tag ids`);
        continue;
      }
      tags.forEach((tag: unknown, index) => {
        if (!isId(tag))
          this.reader.fail(`${this.at}/${field}/${index}`, 'must be a tag id (a positive integer)');
      });
    }
  }

  private reference(value: unknown, path: string, field = path): void {
    this.reader.stepReference(value, `${this.at}/${path}`, this.ids, field);
  }
}

/** class-validator's errors of a nested body, one problem per failed rule at its field's pointer. */
function validationProblems(errors: readonly ValidationError[], at: string): FilterProblem[] {
  return errors.flatMap((error) => [
    ...Object.values(error.constraints ?? {}).map((detail) => ({
      pointer: `${at}/${error.property}`,
      detail,
    })),
    ...validationProblems(error.children ?? [], `${at}/${error.property}`),
  ]);
}
