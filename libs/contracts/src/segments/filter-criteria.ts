import { CONSENT_CHANNELS, LINK_CHANNELS, type ConsentChannel, type LinkChannel } from '../contacts/channels';
import { EVENT_NAME_PATTERN } from '../contacts/event.bodies';
import { MESSAGE_STATUSES, type MessageStatus } from '../messaging/message.bodies';

/**
 * The filter language of audiences (extensions §11): `filter_criteria` is an array whose items must all
 * hold, each a condition `{field, operator, value}` or a group `{any: [...]}`, `{all: [...]}`,
 * `{not: {...}}`. Read here into a typed tree, or into the problems a 422 names with their pointers, so
 * the gateway refuses a bad filter before anything is recorded and the segments service evaluates only
 * filters it can read.
 */

export const MAX_FILTER_CONDITIONS = 50;
/** The top-level array is the first level; each group's items are one level deeper. */
export const MAX_FILTER_LEVELS = 5;
/** Items an `in`, `not_in` or tag list may hold. */
export const MAX_FILTER_LIST = 1_000;
const MAX_TEXT = 1_000;
const MAX_DATA_PATH_DEPTH = 8;

export const TEXT_FIELDS = ['name', 'phone', 'email', 'external_id', 'source'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
export const DATE_FIELDS = ['created_at', 'updated_at'] as const;
export type DateField = (typeof DATE_FIELDS)[number];

export const TEXT_OPERATORS = [
  'eq',
  'neq',
  'in',
  'not_in',
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'exists',
  'not_exists',
] as const;
export type TextOperator = (typeof TEXT_OPERATORS)[number];
export const DATA_OPERATORS = [
  ...TEXT_OPERATORS,
  'gt',
  'gte',
  'lt',
  'lte',
  'between',
  'before',
  'after',
  'within_last',
  'not_within_last',
  'within_next',
] as const;
export type DataOperator = (typeof DATA_OPERATORS)[number];
export const DATE_OPERATORS = ['before', 'after', 'between', 'within_last', 'not_within_last'] as const;
export type DateOperator = (typeof DATE_OPERATORS)[number];
export const TAG_OPERATORS = ['has', 'has_any', 'has_all', 'has_none'] as const;
export type TagOperator = (typeof TAG_OPERATORS)[number];
export const EVENT_OPERATORS = ['performed', 'not_performed', 'count_gte', 'count_lte'] as const;
export type EventOperator = (typeof EVENT_OPERATORS)[number];
export const AUDIENCE_OPERATORS = ['in', 'not_in'] as const;
export type AudienceOperator = (typeof AUDIENCE_OPERATORS)[number];

/** An ISO 8601 duration, kept in its calendar parts: a month is a month whatever its length. */
export interface FilterDuration {
  text: string;
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** A custom field's value: text, number, boolean, or a `YYYY-MM-DD` date. */
export type DataScalar = string | number | boolean;

export type FilterCondition =
  | { kind: 'text'; field: TextField; operator: 'exists' | 'not_exists' }
  | { kind: 'text'; field: TextField; operator: 'in' | 'not_in'; value: string[] }
  | {
      kind: 'text';
      field: TextField;
      operator: Exclude<TextOperator, 'exists' | 'not_exists' | 'in' | 'not_in'>;
      value: string;
    }
  | { kind: 'data'; path: string[]; operator: 'exists' | 'not_exists' }
  | { kind: 'data'; path: string[]; operator: 'in' | 'not_in'; value: DataScalar[] }
  | { kind: 'data'; path: string[]; operator: 'eq' | 'neq'; value: DataScalar }
  | {
      kind: 'data';
      path: string[];
      operator: 'contains' | 'not_contains' | 'starts_with' | 'ends_with';
      value: string;
    }
  | { kind: 'data'; path: string[]; operator: 'gt' | 'gte' | 'lt' | 'lte'; value: number | string }
  | { kind: 'data'; path: string[]; operator: 'between'; value: [number, number] | [string, string] }
  | { kind: 'data'; path: string[]; operator: 'before' | 'after'; value: string }
  | {
      kind: 'data';
      path: string[];
      operator: 'within_last' | 'not_within_last' | 'within_next';
      value: FilterDuration;
    }
  | { kind: 'date'; field: DateField; operator: 'before' | 'after'; value: string }
  | { kind: 'date'; field: DateField; operator: 'between'; value: [string, string] }
  | { kind: 'date'; field: DateField; operator: 'within_last' | 'not_within_last'; value: FilterDuration }
  | { kind: 'tags'; operator: 'has'; value: number }
  | { kind: 'tags'; operator: 'has_any' | 'has_all' | 'has_none'; value: number[] }
  | { kind: 'consent'; channel: ConsentChannel; operator: 'eq'; value: boolean | null }
  | { kind: 'channel'; channel: LinkChannel; operator: 'exists' | 'not_exists' }
  | {
      kind: 'event';
      name: string;
      operator: EventOperator;
      /** Required for count_gte and count_lte. */
      count: number | null;
      within: FilterDuration | null;
    }
  | { kind: 'audience'; operator: AudienceOperator; value: number[] };

export type DataCondition = Extract<FilterCondition, { kind: 'data' }>;

/** A tree of conditions: the same groups whatever the conditions are. */
export type CriteriaNode<C> =
  | { kind: 'condition'; condition: C }
  | { kind: 'any' | 'all'; nodes: CriteriaNode<C>[] }
  | { kind: 'not'; node: CriteriaNode<C> };

export type FilterNode = CriteriaNode<FilterCondition>;

/** The objects besides the contact whose `data` a filter may read when its reader admits them. */
export const DATA_SCOPES = ['event', 'waited_event'] as const;
export type DataScope = (typeof DATA_SCOPES)[number];

/** The operators `message.<step id>.status` takes (extensions §12, branch). */
export const MESSAGE_STATUS_OPERATORS = ['eq', 'neq', 'in', 'not_in'] as const;

/**
 * The conditions a reader admits beyond §11 when told to (workflows, extensions §12):
 * `<scope>.data.<path>` read as `data.<path>` is over another object, and the latest message a
 * workflow step made.
 */
export type ExtendedCondition =
  | FilterCondition
  | { kind: 'scoped_data'; scope: DataScope; condition: DataCondition }
  | { kind: 'message_status'; step: string; operator: 'eq' | 'neq'; value: MessageStatus }
  | { kind: 'message_status'; step: string; operator: 'in' | 'not_in'; value: MessageStatus[] }
  | { kind: 'message_clicked'; step: string; operator: 'eq'; value: boolean };

export type ExtendedNode = CriteriaNode<ExtendedCondition>;

/** What a reader admits beyond §11; without any, it reads audiences' filters exactly. */
export interface FilterCriteriaOptions {
  /** `<scope>.data.<path>` fields, with the operators and values of `data.<path>`. */
  dataScopes?: readonly DataScope[];
  /** The step ids `message.<step id>.status` and `message.<step id>.clicked` may name. */
  messageSteps?: readonly string[];
  /** When given, `audience` is refused at its field with this detail. */
  refuseAudience?: string;
}

export interface FilterProblem {
  pointer: string;
  detail: string;
}

export type CriteriaReading<C> =
  | { ok: true; criteria: CriteriaNode<C>[]; conditions: number; audienceIds: number[] }
  | { ok: false; problems: FilterProblem[] };

export type FilterReading = CriteriaReading<FilterCondition>;

const DURATION =
  /^P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const DATA_SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

/** `P30D`, `PT12H`, `P1M`, …: an ISO 8601 duration of whole parts, not zero; null otherwise. */
export function parseFilterDuration(text: unknown): FilterDuration | null {
  if (typeof text !== 'string') return null;
  const match = DURATION.exec(text);
  if (match === null) return null;
  const [years, months, weeks, days, hours, minutes, seconds] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part)));
  const duration = {
    text,
    years: years!,
    months: months!,
    weeks: weeks!,
    days: days!,
    hours: hours!,
    minutes: minutes!,
    seconds: seconds!,
  };
  const parts = [years, months, weeks, days, hours, minutes, seconds];
  if (parts.every((part) => part === 0) || parts.some((part) => !Number.isSafeInteger(part))) return null;
  return duration;
}

/** A real calendar day written `YYYY-MM-DD`. */
export function isFilterDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE.exec(value);
  if (match === null) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A day (`YYYY-MM-DD`) or an ISO 8601 time with its offset. */
function isDateOrTime(value: unknown): value is string {
  return (
    isFilterDate(value) ||
    (typeof value === 'string' && DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)))
  );
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TEXT;
}

function isScalar(value: unknown): value is DataScalar {
  return isText(value) || (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a filter item by item, collecting every problem rather than stopping at the first. */
class FilterReader {
  readonly problems: FilterProblem[] = [];
  conditions = 0;
  readonly audienceIds = new Set<number>();

  constructor(private readonly options: FilterCriteriaOptions = {}) {}

  node(value: unknown, at: string, level: number): ExtendedNode | null {
    if (level > MAX_FILTER_LEVELS) {
      return this.fail(at, `filters nest at most ${MAX_FILTER_LEVELS} levels deep`);
    }
    if (!isObject(value)) return this.fail(at, 'must be a condition or an any, all or not group');
    const groups = (['any', 'all', 'not'] as const).filter((key) => key in value);
    if (groups.length > 0) {
      const key = groups[0]!;
      const others = Object.keys(value).filter((name) => name !== key);
      if (others.length > 0) {
        return this.fail(`${at}/${others[0]}`, `a group holds only its ${key} member`);
      }
      if (key === 'not') {
        const child = this.node(value.not, `${at}/not`, level + 1);
        return child === null ? null : { kind: 'not', node: child };
      }
      const items = value[key];
      if (!Array.isArray(items) || items.length === 0) {
        return this.fail(`${at}/${key}`, `${key} must be a non-empty array of conditions or groups`);
      }
      const nodes = this.nodes(items, `${at}/${key}`, level + 1);
      return nodes === null ? null : { kind: key, nodes };
    }
    this.conditions += 1;
    if (this.conditions === MAX_FILTER_CONDITIONS + 1) {
      this.fail(at, `a filter holds at most ${MAX_FILTER_CONDITIONS} conditions`);
    }
    const condition = this.condition(value, at);
    return condition === null ? null : { kind: 'condition', condition };
  }

  nodes(items: unknown[], at: string, level: number): ExtendedNode[] | null {
    const read = items.map((item, index) => this.node(item, `${at}/${index}`, level));
    return read.every((node) => node !== null) ? (read as ExtendedNode[]) : null;
  }

  private condition(value: Record<string, unknown>, at: string): ExtendedCondition | null {
    const extra = Object.keys(value).find((name) => !['field', 'operator', 'value'].includes(name));
    if (extra !== undefined)
      return this.fail(`${at}/${extra}`, 'a condition holds field, operator and value');
    const { field, operator } = value;
    if (typeof field !== 'string' || field === '')
      return this.fail(`${at}/field`, 'field must be a field name');
    if (typeof operator !== 'string') return this.fail(`${at}/operator`, 'operator must be a string');
    const has = 'value' in value;
    const reading = new ConditionReading(this, at, operator, has, value.value);
    if ((TEXT_FIELDS as readonly string[]).includes(field)) return reading.text(field as TextField);
    if ((DATE_FIELDS as readonly string[]).includes(field)) return reading.date(field as DateField);
    if (field === 'tags') return reading.tags();
    if (field === 'audience') {
      const refusal = this.options.refuseAudience;
      return refusal === undefined ? reading.audience() : this.fail(`${at}/field`, refusal);
    }
    const extended = this.extendedField(field, at, reading);
    if (extended !== undefined) return extended;
    const dot = field.indexOf('.');
    const [prefix, rest] = dot === -1 ? [field, ''] : [field.slice(0, dot), field.slice(dot + 1)];
    switch (prefix) {
      case 'data': {
        const path = this.dataPath(rest, `${at}/field`, 'data');
        return path === null ? null : reading.data(path);
      }
      case 'consent':
        if (!(CONSENT_CHANNELS as readonly string[]).includes(rest)) {
          return this.fail(`${at}/field`, `consent fields are consent.<${CONSENT_CHANNELS.join('|')}>`);
        }
        return reading.consent(rest as ConsentChannel);
      case 'channel':
        if (!(LINK_CHANNELS as readonly string[]).includes(rest)) {
          return this.fail(`${at}/field`, `channel fields are channel.<${LINK_CHANNELS.join('|')}>`);
        }
        return reading.channel(rest as LinkChannel);
      case 'event':
        if (!EVENT_NAME_PATTERN.test(rest)) {
          return this.fail(`${at}/field`, 'event fields are event.<name>, with the name of an event');
        }
        return reading.event(rest);
      default:
        return this.fail(`${at}/field`, `unknown field "${field}"; fields are ${this.fieldList()}`);
    }
  }

  /**
   * The fields the options admit (`event.data.<path>`, `waited_event.data.<path>`,
   * `message.<step id>.status|clicked`); undefined when the field is none of them. A scope's data
   * comes before `event.<name>`: where `event.data` is admitted, it reads the trigger event's data.
   */
  private extendedField(
    field: string,
    at: string,
    reading: ConditionReading,
  ): ExtendedCondition | null | undefined {
    const scope = this.options.dataScopes?.find((name) => field.startsWith(`${name}.data.`));
    if (scope !== undefined) {
      const path = this.dataPath(field.slice(`${scope}.data.`.length), `${at}/field`, `${scope}.data`);
      if (path === null) return null;
      const condition = reading.data(path);
      return condition === null
        ? null
        : { kind: 'scoped_data', scope, condition: condition as DataCondition };
    }
    const steps = this.options.messageSteps;
    if (steps === undefined || !field.startsWith('message.')) return undefined;
    const fact = field.slice(field.lastIndexOf('.') + 1);
    const step = field.slice('message.'.length, field.lastIndexOf('.'));
    if (step === '' || (fact !== 'status' && fact !== 'clicked')) {
      return this.fail(
        `${at}/field`,
        'message fields are message.<step id>.status and message.<step id>.clicked',
      );
    }
    if (!steps.includes(step)) return this.fail(`${at}/field`, `"${step}" names no step of the workflow`);
    return fact === 'status' ? reading.messageStatus(step) : reading.messageClicked(step);
  }

  private dataPath(rest: string, pointer: string, prefix: string): string[] | null {
    const path = rest.split('.');
    if (rest === '' || path.length > MAX_DATA_PATH_DEPTH || !path.every((part) => DATA_SEGMENT.test(part))) {
      return this.fail(
        pointer,
        `${prefix} fields are ${prefix}.<key>[.<key>…]: at most ${MAX_DATA_PATH_DEPTH} keys of letters, digits, _ and -`,
      );
    }
    return path;
  }

  private fieldList(): string {
    const { dataScopes = [], messageSteps, refuseAudience } = this.options;
    return [
      ...TEXT_FIELDS,
      ...DATE_FIELDS,
      'data.<path>',
      'tags',
      'consent.<channel>',
      'channel.<channel>',
      'event.<name>',
      ...dataScopes.map((scope) => `${scope}.data.<path>`),
      ...(messageSteps === undefined ? [] : ['message.<step id>.status', 'message.<step id>.clicked']),
      ...(refuseAudience === undefined ? ['audience'] : []),
    ].join(', ');
  }

  fail(pointer: string, detail: string): null {
    this.problems.push({ pointer, detail });
    return null;
  }
}

/** One condition's operator and value, read for the field it names. */
class ConditionReading {
  constructor(
    private readonly reader: FilterReader,
    private readonly at: string,
    private readonly operator: string,
    private readonly hasValue: boolean,
    private readonly value: unknown,
  ) {}

  text(field: TextField): FilterCondition | null {
    const operator = this.operatorOf(TEXT_OPERATORS, field);
    if (operator === null) return null;
    switch (operator) {
      case 'exists':
      case 'not_exists':
        return this.none() ? { kind: 'text', field, operator } : null;
      case 'in':
      case 'not_in': {
        const value = this.list(isText, 'strings');
        return value === null ? null : { kind: 'text', field, operator, value };
      }
      case 'eq':
      case 'neq':
      case 'contains':
      case 'not_contains':
      case 'starts_with':
      case 'ends_with':
        return isText(this.value)
          ? { kind: 'text', field, operator, value: this.value }
          : this.wrong(`a non-empty string of at most ${MAX_TEXT} characters`);
    }
  }

  data(path: string[]): FilterCondition | null {
    const operator = this.operatorOf(DATA_OPERATORS, `data.${path.join('.')}`);
    if (operator === null) return null;
    const value = this.value;
    switch (operator) {
      case 'exists':
      case 'not_exists':
        return this.none() ? { kind: 'data', path, operator } : null;
      case 'in':
      case 'not_in': {
        const list = this.list(isScalar, 'strings, numbers or booleans');
        return list === null ? null : { kind: 'data', path, operator, value: list };
      }
      case 'eq':
      case 'neq':
        return isScalar(value)
          ? { kind: 'data', path, operator, value }
          : this.wrong('a string, number, boolean or YYYY-MM-DD date');
      case 'contains':
      case 'not_contains':
      case 'starts_with':
      case 'ends_with':
        return isText(value) ? { kind: 'data', path, operator, value } : this.wrong('a non-empty string');
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        return (typeof value === 'number' && Number.isFinite(value)) || isFilterDate(value)
          ? { kind: 'data', path, operator, value }
          : this.wrong('a number or a YYYY-MM-DD date');
      case 'between': {
        const pair = this.pair(
          (item): item is number => typeof item === 'number' && Number.isFinite(item),
          isFilterDate,
        );
        return pair === null ? null : { kind: 'data', path, operator, value: pair };
      }
      case 'before':
      case 'after':
        return isFilterDate(value)
          ? { kind: 'data', path, operator, value }
          : this.wrong('a YYYY-MM-DD date');
      case 'within_last':
      case 'not_within_last':
      case 'within_next': {
        const duration = parseFilterDuration(value);
        return duration === null ? this.wrongDuration() : { kind: 'data', path, operator, value: duration };
      }
    }
  }

  date(field: DateField): FilterCondition | null {
    const operator = this.operatorOf(DATE_OPERATORS, field);
    if (operator === null) return null;
    switch (operator) {
      case 'before':
      case 'after':
        return isDateOrTime(this.value)
          ? { kind: 'date', field, operator, value: this.value }
          : this.wrong('a YYYY-MM-DD date or an ISO 8601 time');
      case 'between': {
        const pair = this.pair(isDateOrTime, isDateOrTime);
        return pair === null ? null : { kind: 'date', field, operator, value: pair as [string, string] };
      }
      case 'within_last':
      case 'not_within_last': {
        const duration = parseFilterDuration(this.value);
        return duration === null ? this.wrongDuration() : { kind: 'date', field, operator, value: duration };
      }
    }
  }

  tags(): FilterCondition | null {
    const operator = this.operatorOf(TAG_OPERATORS, 'tags');
    if (operator === null) return null;
    if (operator === 'has') {
      return isId(this.value) ? { kind: 'tags', operator, value: this.value } : this.wrong('a tag id');
    }
    const value = this.list(isId, 'tag ids');
    return value === null ? null : { kind: 'tags', operator, value };
  }

  consent(channel: ConsentChannel): FilterCondition | null {
    const operator = this.operatorOf(['eq'] as const, `consent.${channel}`);
    if (operator === null) return null;
    const value = this.value;
    return this.hasValue && (value === true || value === false || value === null)
      ? { kind: 'consent', channel, operator, value }
      : this.wrong('true, false or null');
  }

  channel(channel: LinkChannel): FilterCondition | null {
    const operator = this.operatorOf(['exists', 'not_exists'] as const, `channel.${channel}`);
    if (operator === null) return null;
    return this.none() ? { kind: 'channel', channel, operator } : null;
  }

  event(name: string): FilterCondition | null {
    const operator = this.operatorOf(EVENT_OPERATORS, `event.${name}`);
    if (operator === null) return null;
    const counted = operator === 'count_gte' || operator === 'count_lte';
    if (!this.hasValue || this.value === null) {
      if (counted) return this.wrong('an object with count (and within_last)');
      return { kind: 'event', name, operator, count: null, within: null };
    }
    if (!isObject(this.value)) return this.wrong('an object with count and within_last');
    const extra = Object.keys(this.value).find((key) => key !== 'count' && key !== 'within_last');
    if (extra !== undefined)
      return this.reader.fail(`${this.at}/value/${extra}`, 'takes count and within_last only');
    const { count, within_last: withinLast } = this.value;
    let readCount: number | null = null;
    if (counted) {
      if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
        return this.reader.fail(`${this.at}/value/count`, 'count must be a whole number ≥ 0');
      }
      readCount = count;
    } else if (count !== undefined) {
      return this.reader.fail(
        `${this.at}/value/count`,
        `${operator} takes no count (count_gte and count_lte do)`,
      );
    }
    let within: FilterDuration | null = null;
    if (withinLast !== undefined) {
      within = parseFilterDuration(withinLast);
      if (within === null) {
        return this.reader.fail(
          `${this.at}/value/within_last`,
          'within_last must be an ISO 8601 duration such as P30D',
        );
      }
    }
    return { kind: 'event', name, operator, count: readCount, within };
  }

  messageStatus(step: string): ExtendedCondition | null {
    const operator = this.operatorOf(MESSAGE_STATUS_OPERATORS, `message.${step}.status`);
    if (operator === null) return null;
    const isStatus = (item: unknown): item is MessageStatus =>
      (MESSAGE_STATUSES as readonly unknown[]).includes(item);
    if (operator === 'in' || operator === 'not_in') {
      const value = this.list(isStatus, 'message statuses');
      return value === null ? null : { kind: 'message_status', step, operator, value };
    }
    return isStatus(this.value)
      ? { kind: 'message_status', step, operator, value: this.value }
      : this.wrong(`a message status (${MESSAGE_STATUSES.join(', ')})`);
  }

  messageClicked(step: string): ExtendedCondition | null {
    const operator = this.operatorOf(['eq'] as const, `message.${step}.clicked`);
    if (operator === null) return null;
    return typeof this.value === 'boolean'
      ? { kind: 'message_clicked', step, operator, value: this.value }
      : this.wrong('true or false');
  }

  audience(): FilterCondition | null {
    const operator = this.operatorOf(AUDIENCE_OPERATORS, 'audience');
    if (operator === null) return null;
    // One audience id or an array of them (member of any); a single id is read as a list of one.
    const value = isId(this.value)
      ? [this.value]
      : Array.isArray(this.value)
        ? this.list(isId, 'audience ids')
        : this.wrong(`an audience id or a non-empty array of at most ${MAX_FILTER_LIST} audience ids`);
    if (value === null) return null;
    for (const id of value) this.reader.audienceIds.add(id);
    return { kind: 'audience', operator, value };
  }

  private operatorOf<T extends string>(operators: readonly T[], field: string): T | null {
    if ((operators as readonly string[]).includes(this.operator)) return this.operator as T;
    return this.reader.fail(`${this.at}/operator`, `${field} takes the operators ${operators.join(', ')}`);
  }

  /** exists, not_exists, performed, not_performed: no value (null counts as none). */
  private none(): boolean {
    if (!this.hasValue || this.value === null) return true;
    this.reader.fail(`${this.at}/value`, `${this.operator} takes no value`);
    return false;
  }

  private list<T>(isItem: (item: unknown) => item is T, what: string): T[] | null {
    const value = this.value;
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_FILTER_LIST) {
      return this.wrong(`a non-empty array of at most ${MAX_FILTER_LIST} ${what}`);
    }
    const bad = value.findIndex((item) => !isItem(item));
    if (bad !== -1) return this.reader.fail(`${this.at}/value/${bad}`, `must be one of the ${what}`);
    return value as T[];
  }

  /** `[low, high]`, both of one kind, low ≤ high. */
  private pair<A, B>(
    isFirst: (item: unknown) => item is A,
    isSecond: (item: unknown) => item is B,
  ): [A, A] | [B, B] | null {
    const value = this.value;
    const shape = 'an array [low, high] of two numbers or two dates, low ≤ high';
    if (!Array.isArray(value) || value.length !== 2) return this.wrong(shape);
    const [low, high] = value as [unknown, unknown];
    const ordered = (a: number, b: number): boolean => a <= b;
    if (isFirst(low) && isFirst(high)) {
      if (typeof low === 'number' && typeof high === 'number' && !ordered(low, high))
        return this.wrong(shape);
      if (typeof low === 'string' && typeof high === 'string' && !ordered(Date.parse(low), Date.parse(high)))
        return this.wrong(shape);
      return [low, high];
    }
    if (isSecond(low) && isSecond(high)) {
      if (typeof low === 'string' && typeof high === 'string' && !ordered(Date.parse(low), Date.parse(high)))
        return this.wrong(shape);
      return [low, high];
    }
    return this.wrong(shape);
  }

  private wrong(shape: string): null {
    return this.reader.fail(`${this.at}/value`, `${this.operator} takes ${shape}`);
  }

  private wrongDuration(): null {
    return this.wrong('an ISO 8601 duration such as P30D');
  }
}

/**
 * Reads `filter_criteria` (missing, null or empty: every contact of the workspace). The audience ids it
 * names are returned so the caller can check that they exist and form no cycle.
 */
export function readFilterCriteria(value: unknown, pointer?: string): FilterReading;
/**
 * The same language with what `options` admits beyond §11 (workflows' trigger filters and branch
 * cases, extensions §12); the criteria may then hold the extended conditions.
 */
export function readFilterCriteria(
  value: unknown,
  pointer: string | undefined,
  options: FilterCriteriaOptions,
): CriteriaReading<ExtendedCondition>;
export function readFilterCriteria(
  value: unknown,
  pointer = '/data/attributes/filter_criteria',
  options?: FilterCriteriaOptions,
): CriteriaReading<ExtendedCondition> {
  if (value === undefined || value === null)
    return { ok: true, criteria: [], conditions: 0, audienceIds: [] };
  if (!Array.isArray(value)) {
    const name = options === undefined ? 'filter_criteria' : pointer.slice(pointer.lastIndexOf('/') + 1);
    return {
      ok: false,
      problems: [{ pointer, detail: `${name} must be an array of conditions or groups` }],
    };
  }
  const reader = new FilterReader(options);
  const criteria = reader.nodes(value, pointer, 1);
  if (reader.problems.length > 0 || criteria === null) return { ok: false, problems: reader.problems };
  return { ok: true, criteria, conditions: reader.conditions, audienceIds: [...reader.audienceIds] };
}
