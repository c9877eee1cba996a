import {
  dateBetween,
  dateComparison,
  inTimeRange,
  resolveDataPath,
  textOperand,
  toE164,
  withinLast,
  withinNext,
  type ConsentChannel,
  type DataCondition,
  type DataScalar,
  type ExtendedCondition,
  type ExtendedNode,
  type LinkChannel,
  type TextComparison,
  type TextField,
} from '@cms/contracts';

import { instantOfDateText } from './wait-times';

/**
 * Workflow criteria (extensions §11 and §12) evaluated in memory over one contact, with the
 * semantics the segments service gives them over its index and in SQL (the operand rules are the
 * shared ones of @cms/contracts' filter-operands): strings compare ignoring case,
 * phones in E.164, dates as instants (a `YYYY-MM-DD` being its whole UTC day), relative dates from
 * `now`, and every negative operator the exact complement of its positive one, so that a contact
 * without the value matches `neq`, `not_in`, `not_contains`, `not_exists`, `not_within_last`,
 * `not_performed`, `count_lte` and `has_none`.
 */

/** The contact as a run reads it: as the event that moved the run left it. */
export interface CriteriaContact {
  name: string | null;
  phone: string | null;
  email: string | null;
  external_id: string | null;
  source: string | null;
  data: Record<string, unknown>;
  /** ISO 8601 times. */
  created_at: string;
  updated_at: string;
  tag_ids: readonly number[];
  marketing_consent: Partial<Record<ConsentChannel, boolean | null>>;
  channels: Partial<Record<LinkChannel, string | null>>;
}

/** What `message.<step id>.status` and `.clicked` read: the latest message the step made in the run. */
export interface StepMessageFacts {
  status: string | null;
  clicked: boolean;
}

export interface CriteriaSubject {
  contact: CriteriaContact;
  /** The `occurred_at` (ISO 8601) of each of the contact's events of that name. */
  eventsNamed(name: string): readonly string[];
  /** The trigger event, for `event.data.<path>`. */
  event?: { data: Record<string, unknown> };
  /** The event an `until_event` wait received, for `waited_event.data.<path>`; null when none. */
  waitedEvent?: { data: Record<string, unknown> } | null;
  messages?: (stepId: string) => StepMessageFacts;
}

/** Whether every one of `nodes` holds (an empty list holds for everyone); `now` in epoch ms. */
export function matchesCriteria(
  nodes: readonly ExtendedNode[],
  subject: CriteriaSubject,
  now: number,
): boolean {
  return nodes.every((node) => holds(node, subject, now));
}

function holds(node: ExtendedNode, subject: CriteriaSubject, now: number): boolean {
  switch (node.kind) {
    case 'condition':
      return conditionHolds(node.condition, subject, now);
    case 'all':
      return node.nodes.every((child) => holds(child, subject, now));
    case 'any':
      return node.nodes.some((child) => holds(child, subject, now));
    case 'not':
      return !holds(node.node, subject, now);
  }
}

/** Whether any of `nodes` reads the contact's events (`event.<name>` conditions): only then are they loaded. */
export function readsContactEvents(nodes: readonly ExtendedNode[]): boolean {
  return someCondition(nodes, (condition) => condition.kind === 'event');
}

/** The conditions that read the contact itself: its fields, custom data, times, tags, consent and channels. */
const CONTACT_CONDITIONS: ReadonlySet<ExtendedCondition['kind']> = new Set([
  'text',
  'data',
  'date',
  'tags',
  'consent',
  'channel',
]);

/**
 * Whether any of `nodes` reads the contact (not its events, the run's events or its messages): only
 * then does a run need the contact as it is when a timer moves it.
 */
export function readsContact(nodes: readonly ExtendedNode[]): boolean {
  return someCondition(nodes, (condition) => CONTACT_CONDITIONS.has(condition.kind));
}

function someCondition(
  nodes: readonly ExtendedNode[],
  test: (condition: ExtendedCondition) => boolean,
): boolean {
  return nodes.some((node) => {
    switch (node.kind) {
      case 'condition':
        return test(node.condition);
      case 'all':
      case 'any':
        return someCondition(node.nodes, test);
      case 'not':
        return someCondition([node.node], test);
    }
  });
}

function conditionHolds(condition: ExtendedCondition, subject: CriteriaSubject, now: number): boolean {
  const contact = subject.contact;
  switch (condition.kind) {
    case 'text':
      return textHolds(condition, contact[condition.field]);
    case 'data':
      return dataHolds(condition, resolveDataPath(contact.data, condition.path), now);
    case 'scoped_data': {
      const source = condition.scope === 'event' ? subject.event : subject.waitedEvent;
      return dataHolds(condition.condition, resolveDataPath(source?.data, condition.condition.path), now);
    }
    case 'date': {
      const time = Date.parse(contact[condition.field]);
      switch (condition.operator) {
        case 'before':
        case 'after':
          return inTimeRange(time, dateComparison(condition.operator, condition.value));
        case 'between':
          return inTimeRange(time, dateBetween(...condition.value));
        case 'within_last':
          return inTimeRange(time, withinLast(now, condition.value));
        case 'not_within_last':
          return !inTimeRange(time, withinLast(now, condition.value));
      }
      break;
    }
    case 'tags': {
      const has = (id: number): boolean => contact.tag_ids.includes(id);
      switch (condition.operator) {
        case 'has':
          return has(condition.value);
        case 'has_any':
          return condition.value.some(has);
        case 'has_all':
          return condition.value.every(has);
        case 'has_none':
          return !condition.value.some(has);
      }
      break;
    }
    case 'consent':
      return (contact.marketing_consent[condition.channel] ?? null) === condition.value;
    case 'channel': {
      const linked = present(contact.channels[condition.channel]);
      return condition.operator === 'exists' ? linked : !linked;
    }
    case 'event': {
      const window = condition.within === null ? null : withinLast(now, condition.within);
      const count = subject
        .eventsNamed(condition.name)
        .filter((occurredAt) => window === null || inTimeRange(Date.parse(occurredAt), window)).length;
      switch (condition.operator) {
        case 'performed':
          return count >= 1;
        case 'not_performed':
          return count === 0;
        case 'count_gte':
          return count >= (condition.count ?? 1);
        case 'count_lte':
          return count <= (condition.count ?? 0);
      }
      break;
    }
    case 'audience':
      throw new Error('workflow criteria cannot read audience membership');
    case 'message_status': {
      const status = messageFacts(subject, condition.step).status;
      switch (condition.operator) {
        case 'eq':
          return status === condition.value;
        case 'neq':
          return status !== condition.value;
        case 'in':
          return status !== null && (condition.value as readonly string[]).includes(status);
        case 'not_in':
          return status === null || !(condition.value as readonly string[]).includes(status);
      }
      break;
    }
    case 'message_clicked':
      return messageFacts(subject, condition.step).clicked === condition.value;
  }
}

function messageFacts(subject: CriteriaSubject, step: string): StepMessageFacts {
  return subject.messages?.(step) ?? { status: null, clicked: false };
}

function present(value: string | null | undefined): value is string {
  return typeof value === 'string' && value !== '';
}

// --- text -------------------------------------------------------------------------------------

/** The text a condition compares with a stored value, as the segments service reads it. */
function operand(field: TextField | null, comparison: TextComparison, value: string): string {
  return textOperand(field, comparison, value, toE164);
}

function textHolds(condition: Extract<ExtendedCondition, { kind: 'text' }>, stored: string | null): boolean {
  const field = condition.field;
  const value = present(stored) ? stored.toLowerCase() : null;
  const equalsAny = (candidates: readonly string[]): boolean =>
    value !== null && candidates.some((candidate) => operand(field, 'in', candidate) === value);
  switch (condition.operator) {
    case 'exists':
      return value !== null;
    case 'not_exists':
      return value === null;
    case 'eq':
      return equalsAny([condition.value]);
    case 'neq':
      return !equalsAny([condition.value]);
    case 'in':
      return equalsAny(condition.value);
    case 'not_in':
      return !equalsAny(condition.value);
    case 'contains':
      return value !== null && value.includes(operand(field, 'contains', condition.value));
    case 'not_contains':
      return !(value !== null && value.includes(operand(field, 'contains', condition.value)));
    case 'starts_with':
      return value !== null && value.startsWith(operand(field, 'starts_with', condition.value));
    case 'ends_with':
      return value !== null && value.endsWith(operand(field, 'ends_with', condition.value));
  }
}

// --- custom fields ------------------------------------------------------------------------------

/** Only scalars are values: null, an object or an array at the path is none. */
function scalarOf(value: unknown): DataScalar | null {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Values of the same type only: strings ignoring case, numbers, booleans. */
function dataEquals(stored: DataScalar | null, candidates: readonly DataScalar[]): boolean {
  if (stored === null) return false;
  return candidates.some((candidate) =>
    typeof stored === 'string' && typeof candidate === 'string'
      ? stored.toLowerCase() === candidate.toLowerCase()
      : stored === candidate,
  );
}

function dataHolds(condition: DataCondition, raw: unknown, now: number): boolean {
  const stored = scalarOf(raw);
  const text = typeof stored === 'string' ? stored.toLowerCase() : null;
  const number = typeof stored === 'number' ? stored : null;
  const time = typeof stored === 'string' ? (instantOfDateText(stored) ?? NaN) : NaN;
  switch (condition.operator) {
    case 'exists':
      return stored !== null;
    case 'not_exists':
      return stored === null;
    case 'eq':
      return dataEquals(stored, [condition.value]);
    case 'neq':
      return !dataEquals(stored, [condition.value]);
    case 'in':
      return dataEquals(stored, condition.value);
    case 'not_in':
      return !dataEquals(stored, condition.value);
    case 'contains':
      return text !== null && text.includes(condition.value.toLowerCase());
    case 'not_contains':
      return !(text !== null && text.includes(condition.value.toLowerCase()));
    case 'starts_with':
      return text !== null && text.startsWith(condition.value.toLowerCase());
    case 'ends_with':
      return text !== null && text.endsWith(condition.value.toLowerCase());
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const { operator, value } = condition;
      if (typeof value === 'string') return inTimeRange(time, dateComparison(operator, value));
      if (number === null) return false;
      if (operator === 'gt') return number > value;
      if (operator === 'gte') return number >= value;
      return operator === 'lt' ? number < value : number <= value;
    }
    case 'between': {
      const [low, high] = condition.value;
      if (typeof low === 'number' && typeof high === 'number') {
        return number !== null && number >= low && number <= high;
      }
      return inTimeRange(time, dateBetween(String(low), String(high)));
    }
    case 'before':
    case 'after':
      return inTimeRange(time, dateComparison(condition.operator, condition.value));
    case 'within_last':
      return inTimeRange(time, withinLast(now, condition.value));
    case 'not_within_last':
      return !inTimeRange(time, withinLast(now, condition.value));
    case 'within_next':
      return inTimeRange(time, withinNext(now, condition.value));
  }
}
