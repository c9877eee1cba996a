/** The filter language of audiences (extensions §11), as the builder edits it. */

export interface Condition {
  field: string;
  operator: string;
  value?: unknown;
}
export type FilterNode = Condition | { all: FilterNode[] } | { any: FilterNode[] } | { not: FilterNode };

export const CHANNELS = [
  'whatsapp',
  'sms',
  'email',
  'rcs',
  'telegram',
  'messenger',
  'instagram',
  'browser_push',
] as const;
export const LINK_CHANNELS = ['telegram', 'messenger', 'instagram', 'browser_push'] as const;

export type FieldKind =
  | 'name'
  | 'phone'
  | 'email'
  | 'external_id'
  | 'source'
  | 'data'
  | 'created_at'
  | 'updated_at'
  | 'tags'
  | 'consent'
  | 'channel'
  | 'event'
  | 'audience';

export const FIELD_KINDS: ReadonlyArray<{ value: FieldKind; label: string }> = [
  { value: 'name', label: 'Name' },
  { value: 'phone', label: 'Phone' },
  { value: 'email', label: 'Email' },
  { value: 'external_id', label: 'External id' },
  { value: 'source', label: 'Source' },
  { value: 'data', label: 'Custom field (data.…)' },
  { value: 'created_at', label: 'Created at' },
  { value: 'updated_at', label: 'Updated at' },
  { value: 'tags', label: 'Tags' },
  { value: 'consent', label: 'Marketing consent (consent.…)' },
  { value: 'channel', label: 'Linked channel (channel.…)' },
  { value: 'event', label: 'Event (event.…)' },
  { value: 'audience', label: 'Member of audience' },
];

const STRING_OPERATORS = [
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
];
const DATE_OPERATORS = ['before', 'after', 'between', 'within_last', 'not_within_last'];

export const OPERATORS: Record<FieldKind, readonly string[]> = {
  name: STRING_OPERATORS,
  phone: STRING_OPERATORS,
  email: STRING_OPERATORS,
  external_id: STRING_OPERATORS,
  source: STRING_OPERATORS,
  data: [
    ...STRING_OPERATORS,
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
  ],
  created_at: DATE_OPERATORS,
  updated_at: DATE_OPERATORS,
  tags: ['has', 'has_any', 'has_all', 'has_none'],
  consent: ['eq'],
  channel: ['exists', 'not_exists'],
  event: ['performed', 'not_performed', 'count_gte', 'count_lte'],
  audience: ['in', 'not_in'],
};

export const OPERATOR_LABELS: Record<string, string> = {
  eq: 'equals',
  neq: 'does not equal',
  in: 'is one of',
  not_in: 'is none of',
  contains: 'contains',
  not_contains: 'does not contain',
  starts_with: 'starts with',
  ends_with: 'ends with',
  exists: 'exists',
  not_exists: 'does not exist',
  gt: 'greater than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
  between: 'between (both included)',
  before: 'before',
  after: 'after',
  within_last: 'within the last',
  not_within_last: 'not within the last',
  within_next: 'within the next',
  has: 'has the tag',
  has_any: 'has any of the tags',
  has_all: 'has all of the tags',
  has_none: 'has none of the tags',
  performed: 'performed',
  not_performed: 'not performed',
  count_gte: 'performed at least (count)',
  count_lte: 'performed at most (count)',
};

/** A field name split into its kind and what follows the dot (`data.plan` → data, plan). */
export function splitField(field: string): { kind: FieldKind | null; rest: string } {
  const dot = field.indexOf('.');
  const head = dot === -1 ? field : field.slice(0, dot);
  const rest = dot === -1 ? '' : field.slice(dot + 1);
  const kind = FIELD_KINDS.find((candidate) => candidate.value === head)?.value ?? null;
  if (!kind) return { kind: null, rest: field };
  return { kind, rest };
}

export function joinField(kind: FieldKind, rest: string): string {
  return ['data', 'consent', 'channel', 'event'].includes(kind) ? `${kind}.${rest}` : kind;
}

/** The default condition of a field kind: its first operator and an empty value. */
export function newCondition(kind: FieldKind = 'name'): Condition {
  const rest = kind === 'consent' ? 'sms' : kind === 'channel' ? 'telegram' : '';
  return {
    field: joinField(kind, rest),
    operator: OPERATORS[kind][0]!,
    ...initialValue(kind, OPERATORS[kind][0]!),
  };
}

/** The value an operator starts with (none for the operators that take none). */
export function initialValue(kind: FieldKind | null, operator: string): { value?: unknown } {
  if (['exists', 'not_exists', 'performed', 'not_performed'].includes(operator)) return {};
  if (operator === 'count_gte' || operator === 'count_lte') return { value: { count: 1 } };
  if (['in', 'not_in', 'has_any', 'has_all', 'has_none'].includes(operator))
    return { value: kind === 'audience' ? '' : [] };
  if (operator === 'between') return { value: ['', ''] };
  if (kind === 'consent') return { value: true };
  if (operator === 'within_last' || operator === 'not_within_last' || operator === 'within_next')
    return { value: 'P30D' };
  if (kind === 'tags') return { value: '' };
  return { value: '' };
}

export function isCondition(node: FilterNode): node is Condition {
  return typeof (node as Condition).field === 'string' || typeof (node as Condition).operator === 'string';
}

/** A scalar typed into a custom-field input: a number, true/false, or the text. */
export function scalar(text: string): string | number | boolean {
  const trimmed = text.trim();
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  if (trimmed !== '' && /^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  return text;
}

/** A comma-separated list: numbers for tags and audiences, scalars for custom fields, text otherwise. */
export function parseList(text: string, kind: FieldKind | null): unknown[] {
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (kind === 'tags' || kind === 'audience')
    return items.map((item) => (/^\d+$/.test(item) ? Number(item) : item));
  if (kind === 'data') return items.map(scalar);
  return items;
}

export function showScalar(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
