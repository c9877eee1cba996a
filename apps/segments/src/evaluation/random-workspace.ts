import {
  CHANNEL_TYPES,
  CONSENT_CHANNELS,
  LINK_CHANNELS,
  readFilterCriteria,
  type FilterNode,
} from '@cms/contracts';

import type { ContactEventRow } from './event-store';
import type { SuppressionEntryRow } from './suppression-list';
import type { ContactRow } from './workspace-index';

/**
 * Small random workspaces and random filters for checking evaluation: every field, operator and
 * group, with values drawn from the data (case variants, accents, phone numbers written in several
 * ways, days and times around `RANDOM_NOW` and on the bounds of the usual windows, strings that look
 * like dates and are not, values of mixed types at one path) so that conditions match some contacts
 * and not others. The unit test holds the index to a plain reading of the contract with them, and
 * the integration test holds the SQL baseline to the index.
 */

export const RANDOM_NOW = Date.parse('2026-03-31T12:00:00Z');
const NOW = RANDOM_NOW;
const DAY = 86_400_000;

export type Random = () => number;

/** A reading of the phone numbers below (+ or 00 and digits, with separators). */
export function randomPhoneE164(raw: string): string | undefined {
  const digits = raw.trim().replace(/[\s().\-/]/g, '');
  const international = digits.startsWith('00') ? `+${digits.slice(2)}` : digits;
  return /^\+[1-9]\d{7,14}$/.test(international) ? international : undefined;
}

/**
 * Names with case and accents. (Not İ or other letters whose lower case Postgres' ctype and
 * Unicode's full mapping write differently: the SQL baseline is held to the index with these.)
 */
const NAMES = ['Ana', 'ana silva', 'ANABELA', 'Élodie', 'élodie dubois', 'João', 'Bob', '', 'ÅSA'];
const PHONES = ['+447700900001', '+447700900002', '+33612345678', '+14155550100'];
const EMAILS = ['ana@example.com', 'Ana@Example.COM', 'bob@example.org', 'élodie@exemple.fr', 'x@y'];
const SOURCES = ['web', 'Web', 'import', 'api'];
const STRINGS = ['pro', 'PRO', 'free', 'team', 'Pro plan', '42', 'true', '', 'Lisbon', 'lisboa'];
const DAYS = [
  '2026-03-01',
  '2026-03-24',
  '2026-03-30',
  '2026-03-31',
  '2026-04-05',
  '2025-12-31',
  '2024-02-29',
];
const TIMES = [
  '2026-03-30T10:00:00+02:00',
  '2026-03-31T11:59:59.999Z',
  '2026-03-31T12:00:00.001Z',
  '2026-03-24T12:00Z',
  '2026-04-02T00:00:00-05:00',
  '2026-02-28T12:00:00Z',
];
const NOT_DATES = ['2024-02-30', '0000-01-01', '2026-03-31T25:00Z', '2026/03/31', '2026-03-31 10:00'];
const DATA_KEYS = ['plan', 'score', 'vip', 'day', 'at', 'city'];
const EVENT_NAMES = ['buy', 'view', 'open'];
/** Some reach back to a whole day, some to the middle of one (P1DT10H: 02:00 UTC on the 30th). */
const DURATIONS = ['P7D', 'P1M', 'PT36H', 'P1W', 'P1Y', 'P30DT12H', 'P2M', 'P1DT10H'];

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function maybe<T>(random: Random, chance: number, value: () => T): T | null {
  return random() < chance ? value() : null;
}

function dataValue(random: Random): unknown {
  const roll = random();
  if (roll < 0.25) return pick(random, STRINGS);
  if (roll < 0.4) return pick(random, [0, 7, 7.5, 42, -3, 1000, 41.999]);
  if (roll < 0.5) return random() < 0.5;
  if (roll < 0.62) return pick(random, DAYS);
  if (roll < 0.74) return pick(random, TIMES);
  if (roll < 0.8) return pick(random, NOT_DATES);
  if (roll < 0.86) return null;
  if (roll < 0.93) return { city: pick(random, STRINGS), at: pick(random, TIMES) };
  return [pick(random, STRINGS), 3];
}

export function randomContact(random: Random, id: number): ContactRow {
  const data: Record<string, unknown> = {};
  for (const key of DATA_KEYS) if (random() < 0.7) data[key] = dataValue(random);
  const consent = Object.fromEntries(
    CONSENT_CHANNELS.map((channel) => [channel, pick(random, [true, false, null])]),
  ) as ContactRow['marketing_consent'];
  const channels = Object.fromEntries(
    LINK_CHANNELS.map((channel) => [
      channel,
      maybe(random, 0.4, () => pick(random, ['TgUser', 'tguser', ' id-1 ', '  '])),
    ]),
  ) as ContactRow['channels'];
  const created = NOW - Math.floor(random() * 90) * DAY + pick(random, [0, 1, -1, DAY / 2]);
  return {
    id,
    name: maybe(random, 0.85, () => pick(random, NAMES)),
    phone: maybe(random, 0.7, () => pick(random, PHONES)),
    email: maybe(random, 0.7, () => pick(random, EMAILS)),
    external_id: maybe(random, 0.5, () => pick(random, ['CRM-1', 'crm-2', 'ext'])),
    source: maybe(random, 0.8, () => pick(random, SOURCES)),
    data,
    marketing_consent: consent,
    channels,
    tag_ids: [1, 2, 3, 4, 5, 6].filter(() => random() < 0.3),
    created_at: created,
    updated_at: created + Math.floor(random() * 10) * DAY,
  };
}

export function randomEvent(random: Random, eventId: number, contactIds: number[]): ContactEventRow {
  return {
    event_id: eventId,
    // Now and then an event of a contact not in the workspace yet.
    contact_id: random() < 0.05 ? 900_000 + Math.floor(random() * 5) : pick(random, contactIds),
    name: pick(random, EVENT_NAMES),
    occurred_at: NOW - Math.floor(random() * 60) * DAY + pick(random, [0, 1, -1, DAY / 2, 3 * DAY]),
  };
}

export function randomSuppression(random: Random): SuppressionEntryRow {
  const channel = pick(random, CHANNEL_TYPES);
  const address =
    channel === 'email'
      ? pick(random, EMAILS).toUpperCase()
      : channel === 'whatsapp' || channel === 'sms' || channel === 'rcs'
        ? pick(random, PHONES)
        : pick(random, ['TgUser', 'tguser', 'id-1']);
  return { id: `sup_${Math.floor(random() * 30)}`, channel, address, active: random() < 0.8 };
}

function randomCondition(random: Random): unknown {
  const roll = random();
  const textOperators = [
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
  if (roll < 0.2) {
    const field = pick(random, ['name', 'phone', 'email', 'external_id', 'source']);
    const operator = pick(random, textOperators);
    const pool = {
      name: NAMES,
      phone: [...PHONES, '+44 7700 900001', '0044 7700 900002', '+33'],
      email: EMAILS,
      external_id: ['crm-1', 'CRM-2', 'ext'],
      source: SOURCES,
    }[field]!;
    const text = () => {
      const whole = pick(
        random,
        pool.filter((item) => item !== ''),
      );
      const from = Math.floor(random() * 3);
      return operator === 'eq' ||
        operator === 'neq' ||
        operator === 'in' ||
        operator === 'not_in' ||
        whole.length < 4
        ? whole
        : whole.slice(from, from + 2 + Math.floor(random() * 4)).replace(/^\s+|\s+$/g, '') || whole;
    };
    if (operator === 'exists' || operator === 'not_exists') return { field, operator };
    if (operator === 'in' || operator === 'not_in') return { field, operator, value: [text(), text()] };
    return { field, operator, value: text() };
  }
  if (roll < 0.5) {
    const field = `data.${pick(random, [...DATA_KEYS, 'city.city', 'city.at', 'missing'])}`;
    const operator = pick(random, [
      ...textOperators,
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
    ]);
    const scalar = () =>
      pick(random, [
        pick(
          random,
          STRINGS.filter((item) => item !== ''),
        ),
        pick(random, [7, 7.5, 42, -3]),
        random() < 0.5,
        pick(random, DAYS),
      ]);
    switch (operator) {
      case 'exists':
      case 'not_exists':
        return { field, operator };
      case 'eq':
      case 'neq':
        return { field, operator, value: scalar() };
      case 'in':
      case 'not_in':
        return { field, operator, value: [scalar(), scalar(), scalar()] };
      case 'contains':
      case 'not_contains':
      case 'starts_with':
      case 'ends_with':
        return { field, operator, value: pick(random, ['pr', 'PRO', 'e', 'lis', '2026-03', ':00', '42']) };
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        return {
          field,
          operator,
          value: random() < 0.5 ? pick(random, [7, 7.5, 42, 0]) : pick(random, DAYS),
        };
      case 'between':
        return random() < 0.5
          ? {
              field,
              operator,
              value: pick(random, [
                [0, 7.5],
                [7, 42],
                [-3, -3],
              ]),
            }
          : {
              field,
              operator,
              value: pick(random, [
                ['2026-03-24', '2026-03-31'],
                ['2024-01-01', '2026-03-01'],
                ['2026-03-31', '2026-04-05'],
              ]),
            };
      case 'before':
      case 'after':
        return { field, operator, value: pick(random, DAYS) };
      default:
        return { field, operator, value: pick(random, DURATIONS) };
    }
  }
  if (roll < 0.6) {
    const field = pick(random, ['created_at', 'updated_at']);
    const operator = pick(random, ['before', 'after', 'between', 'within_last', 'not_within_last']);
    const bound = () => pick(random, [...DAYS, ...TIMES]);
    if (operator === 'between') {
      const [low, high] = [bound(), bound()].sort((a, b) => Date.parse(a) - Date.parse(b));
      return { field, operator, value: [low, high] };
    }
    if (operator === 'before' || operator === 'after') return { field, operator, value: bound() };
    return { field, operator, value: pick(random, DURATIONS) };
  }
  if (roll < 0.68) {
    const operator = pick(random, ['has', 'has_any', 'has_all', 'has_none']);
    const tags = () => [1, 2, 3, 4, 5, 6, 7].filter(() => random() < 0.35).concat([pick(random, [1, 2, 3])]);
    return { field: 'tags', operator, value: operator === 'has' ? pick(random, [1, 2, 3, 7]) : tags() };
  }
  if (roll < 0.76) {
    return {
      field: `consent.${pick(random, CONSENT_CHANNELS)}`,
      operator: 'eq',
      value: pick(random, [true, false, null]),
    };
  }
  if (roll < 0.8) {
    return {
      field: `channel.${pick(random, LINK_CHANNELS)}`,
      operator: pick(random, ['exists', 'not_exists']),
    };
  }
  if (roll < 0.95) {
    const operator = pick(random, ['performed', 'not_performed', 'count_gte', 'count_lte']);
    const value: Record<string, unknown> = {};
    if (operator === 'count_gte' || operator === 'count_lte') value.count = pick(random, [0, 1, 2, 3]);
    if (random() < 0.6) value.within_last = pick(random, DURATIONS);
    return {
      field: `event.${pick(random, EVENT_NAMES)}`,
      operator,
      value: Object.keys(value).length > 0 ? value : undefined,
    };
  }
  return {
    field: 'audience',
    operator: pick(random, ['in', 'not_in']),
    value: random() < 0.7 ? [1] : [1, 2],
  };
}

function randomNode(random: Random, depth: number): unknown {
  const roll = random();
  if (depth >= 3 || roll < 0.55) return randomCondition(random);
  if (roll < 0.7) return { not: randomNode(random, depth + 1) };
  const items = Array.from({ length: 1 + Math.floor(random() * 3) }, () => randomNode(random, depth + 1));
  return roll < 0.85 ? { any: items } : { all: items };
}

/** A filter as a client sends it (read with readFilterCriteria), naming audiences 1 and 2. */
export function randomCriteria(random: Random): FilterNode[] {
  const raw = Array.from({ length: Math.floor(random() * 3) + (random() < 0.05 ? 0 : 1) }, () =>
    randomNode(random, 1),
  );
  const reading = readFilterCriteria(JSON.parse(JSON.stringify(raw)));
  if (!reading.ok) throw new Error(`a generated filter was refused: ${JSON.stringify(reading.problems)}`);
  return reading.criteria;
}
