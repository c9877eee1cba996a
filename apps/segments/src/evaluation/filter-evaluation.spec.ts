import {
  CHANNEL_TYPES,
  resolveDataPath,
  shiftByDuration,
  textOperand,
  type ChannelType,
  type FilterCondition,
  type FilterDuration,
  type FilterNode,
} from '@cms/contracts';

import type { Bitset } from './bitset';
import type { ContactEventRow } from './event-store';
import type { SuppressionEntryRow } from './suppression-list';
import {
  RANDOM_NOW,
  randomContact,
  randomCriteria,
  randomEvent,
  randomPhoneE164,
  randomSuppression,
  type Random,
} from './random-workspace';
import { seededRandom } from './synthetic-workspace';
import { WorkspaceIndex, type ContactRow } from './workspace-index';

/**
 * The index against a plain reading of the contract (extensions §11), contact by contact, over
 * random workspaces and random filters (random-workspace.ts); then again after random changes, so
 * the incremental upkeep of every column is held to the same answers.
 */

const NOW = RANDOM_NOW;
const DAY = 86_400_000;
const phoneE164 = randomPhoneE164;

// --- the plain reading of the contract ------------------------------------------------------------

interface Model {
  contacts: Map<number, ContactRow>;
  events: Map<number, ContactEventRow>;
  suppressions: Map<string, SuppressionEntryRow>;
  audiences: Map<number, Set<number>>;
}

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)(:[0-5]\d(\.\d{1,9})?)?(Z|[+-](0\d|1[0-4]):[0-5]\d)$/;

/** A custom field's date: a real day, or an ISO time with offset; undefined for anything else. */
function referenceTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = DAY_TEXT.exec(value) ?? TIME_TEXT.exec(value);
  if (match === null || match[1] === '0000') return undefined;
  const day = value.slice(0, 10);
  const midnight = Date.parse(`${day}T00:00:00Z`);
  // Date.parse rolls 2024-02-30 over into March: a day that does not come back is not real.
  if (Number.isNaN(midnight) || new Date(midnight).toISOString().slice(0, 10) !== day) return undefined;
  return value.length === 10 ? midnight : Date.parse(value);
}

function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

const isDay = (value: string): boolean => DAY_TEXT.test(value);

function within(time: number, duration: FilterDuration, now: number): boolean {
  return time >= shiftByDuration(now, duration, -1) && time <= now;
}

function referenceCondition(model: Model, contact: ContactRow, condition: FilterCondition): boolean {
  switch (condition.kind) {
    case 'text': {
      const value = contact[condition.field];
      const lower = value === null ? null : value.toLowerCase();
      const operand = (comparison: 'eq' | 'in' | 'contains' | 'starts_with' | 'ends_with', text: string) =>
        textOperand(condition.field, comparison, text, phoneE164);
      switch (condition.operator) {
        case 'exists':
          return value !== null;
        case 'not_exists':
          return value === null;
        case 'eq':
          return lower === operand('eq', condition.value);
        case 'neq':
          return lower !== operand('eq', condition.value);
        case 'in':
          return lower !== null && condition.value.some((text) => operand('in', text) === lower);
        case 'not_in':
          return !(lower !== null && condition.value.some((text) => operand('in', text) === lower));
        case 'contains':
          return lower !== null && lower.includes(operand('contains', condition.value));
        case 'not_contains':
          return !(lower !== null && lower.includes(operand('contains', condition.value)));
        case 'starts_with':
          return lower !== null && lower.startsWith(operand('starts_with', condition.value));
        case 'ends_with':
          return lower !== null && lower.endsWith(operand('ends_with', condition.value));
      }
      break;
    }
    case 'data': {
      const value = resolveDataPath(contact.data, condition.path);
      const scalar =
        typeof value === 'string' ||
        typeof value === 'boolean' ||
        (typeof value === 'number' && Number.isFinite(value));
      const equals = (wanted: string | number | boolean): boolean =>
        typeof wanted === 'string'
          ? typeof value === 'string' && value.toLowerCase() === wanted.toLowerCase()
          : value === wanted;
      const text = typeof value === 'string' ? value.toLowerCase() : null;
      const time = referenceTime(value);
      const number = typeof value === 'number' ? value : undefined;
      switch (condition.operator) {
        case 'exists':
          return scalar;
        case 'not_exists':
          return !scalar;
        case 'eq':
          return equals(condition.value);
        case 'neq':
          return !equals(condition.value);
        case 'in':
          return condition.value.some(equals);
        case 'not_in':
          return !condition.value.some(equals);
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
          const bound = condition.value;
          if (typeof bound === 'number') {
            if (number === undefined) return false;
            return { gt: number > bound, gte: number >= bound, lt: number < bound, lte: number <= bound }[
              condition.operator
            ];
          }
          if (time === undefined) return false;
          const start = dayStart(bound);
          return {
            gt: time >= start + DAY,
            gte: time >= start,
            lt: time < start,
            lte: time < start + DAY,
          }[condition.operator];
        }
        case 'between': {
          const [low, high] = condition.value;
          if (typeof low === 'number' && typeof high === 'number') {
            return number !== undefined && number >= low && number <= high;
          }
          return time !== undefined && time >= dayStart(String(low)) && time < dayStart(String(high)) + DAY;
        }
        case 'before':
          return time !== undefined && time < dayStart(condition.value);
        case 'after':
          return time !== undefined && time >= dayStart(condition.value) + DAY;
        case 'within_last':
          return time !== undefined && within(time, condition.value, NOW);
        case 'not_within_last':
          return !(time !== undefined && within(time, condition.value, NOW));
        case 'within_next':
          return time !== undefined && time >= NOW && time <= shiftByDuration(NOW, condition.value, 1);
      }
      break;
    }
    case 'date': {
      const time = contact[condition.field];
      const low = (bound: string) => (isDay(bound) ? time >= dayStart(bound) : time >= Date.parse(bound));
      const high = (bound: string) =>
        isDay(bound) ? time < dayStart(bound) + DAY : time <= Date.parse(bound);
      switch (condition.operator) {
        case 'before':
          return isDay(condition.value)
            ? time < dayStart(condition.value)
            : time < Date.parse(condition.value);
        case 'after':
          return isDay(condition.value)
            ? time >= dayStart(condition.value) + DAY
            : time > Date.parse(condition.value);
        case 'between':
          return low(condition.value[0]) && high(condition.value[1]);
        case 'within_last':
          return within(time, condition.value, NOW);
        case 'not_within_last':
          return !within(time, condition.value, NOW);
      }
      break;
    }
    case 'tags': {
      const tags = new Set(contact.tag_ids);
      switch (condition.operator) {
        case 'has':
          return tags.has(condition.value);
        case 'has_any':
          return condition.value.some((tag) => tags.has(tag));
        case 'has_all':
          return condition.value.every((tag) => tags.has(tag));
        case 'has_none':
          return !condition.value.some((tag) => tags.has(tag));
      }
      break;
    }
    case 'consent': {
      const value = contact.marketing_consent[condition.channel];
      return condition.value === null ? value !== true && value !== false : value === condition.value;
    }
    case 'channel': {
      const value = contact.channels[condition.channel];
      const linked = typeof value === 'string' && value.trim() !== '';
      return condition.operator === 'exists' ? linked : !linked;
    }
    case 'event': {
      const { name, within: window } = condition;
      let count = 0;
      for (const event of model.events.values()) {
        if (event.contact_id !== contact.id || event.name !== name) continue;
        if (window === null || within(event.occurred_at, window, NOW)) count += 1;
      }
      switch (condition.operator) {
        case 'performed':
          return count >= 1;
        case 'not_performed':
          return count === 0;
        case 'count_gte':
          return count >= condition.count!;
        case 'count_lte':
          return count <= condition.count!;
      }
      break;
    }
    case 'audience': {
      const member = condition.value.some((id) => model.audiences.get(id)!.has(contact.id));
      return condition.operator === 'in' ? member : !member;
    }
  }
}

function referenceNode(model: Model, contact: ContactRow, node: FilterNode): boolean {
  switch (node.kind) {
    case 'condition':
      return referenceCondition(model, contact, node.condition);
    case 'all':
      return node.nodes.every((child) => referenceNode(model, contact, child));
    case 'any':
      return node.nodes.some((child) => referenceNode(model, contact, child));
    case 'not':
      return !referenceNode(model, contact, node.node);
  }
}

function referenceMatches(model: Model, criteria: FilterNode[]): number[] {
  return [...model.contacts.values()]
    .filter((contact) => criteria.every((node) => referenceNode(model, contact, node)))
    .map((contact) => contact.id)
    .sort((a, b) => a - b);
}

function referenceReachable(model: Model, ids: number[]): Record<ChannelType, number> {
  const counts = Object.fromEntries(CHANNEL_TYPES.map((channel) => [channel, 0])) as Record<
    ChannelType,
    number
  >;
  const active = [...model.suppressions.values()].filter((entry) => entry.active);
  for (const id of ids) {
    const contact = model.contacts.get(id)!;
    for (const channel of CHANNEL_TYPES) {
      const raw =
        channel === 'email'
          ? contact.email
          : channel === 'whatsapp' || channel === 'sms' || channel === 'rcs'
            ? contact.phone
            : contact.channels[channel];
      const linked =
        channel === 'telegram' ||
        channel === 'messenger' ||
        channel === 'instagram' ||
        channel === 'browser_push';
      const identifier = raw === null ? null : linked ? raw.trim() || null : raw.toLowerCase();
      if (identifier === null || contact.marketing_consent[channel] !== true) continue;
      const suppressed = active.some(
        (entry) =>
          entry.channel === channel &&
          (linked ? entry.address.trim() : entry.address.trim().toLowerCase()) === identifier,
      );
      if (!suppressed) counts[channel] += 1;
    }
  }
  return counts;
}

// --- the comparison --------------------------------------------------------------------------------

function workspace(random: Random): { index: WorkspaceIndex; model: Model; nextEventId: number } {
  const index = new WorkspaceIndex({ phoneE164 });
  const model: Model = {
    contacts: new Map(),
    events: new Map(),
    suppressions: new Map(),
    audiences: new Map(),
  };
  const ids = new Set<number>();
  while (ids.size < 250)
    ids.add(random() < 0.2 ? 2 ** 40 + Math.floor(random() * 1e6) : 1 + Math.floor(random() * 1e6));
  const contacts = [...ids].map((id) => randomContact(random, id));
  const events = Array.from({ length: 700 }, (_, index) => randomEvent(random, index + 1, [...ids]));
  const suppressions = Array.from({ length: 25 }, () => randomSuppression(random));
  // Events first for some contacts: they wait for their contact.
  index.upsertEvents(events.slice(0, 100));
  index.upsertContacts(contacts);
  index.upsertEvents(events.slice(100));
  index.upsertSuppressions(suppressions);
  for (const contact of contacts) model.contacts.set(contact.id, contact);
  for (const event of events) model.events.set(event.event_id, event);
  for (const entry of suppressions) model.suppressions.set(entry.id, entry);
  return { index, model, nextEventId: events.length + 1 };
}

function change(
  random: Random,
  { index, model }: { index: WorkspaceIndex; model: Model },
  nextEventId: number,
  suppressionsToo: boolean,
): void {
  const ids = [...model.contacts.keys()];
  const changed = ids.filter(() => random() < 0.3).map((id) => randomContact(random, id));
  // Among the new contacts, some whose events arrived before them.
  const added = [
    900_000,
    900_001,
    900_002,
    ...Array.from({ length: 40 }, () => 2_000_000 + Math.floor(random() * 1e6)),
  ]
    .filter((id) => !model.contacts.has(id))
    .map((id) => randomContact(random, id));
  index.upsertContacts([...changed, ...added]);
  for (const contact of [...changed, ...added]) model.contacts.set(contact.id, contact);
  const allIds = [...model.contacts.keys()];
  // Corrections of known events (new time, name or contact) and new events.
  const events = [
    ...[...model.events.keys()]
      .filter(() => random() < 0.1)
      .map((eventId) => randomEvent(random, eventId, allIds)),
    ...Array.from({ length: 200 }, (_, offset) => randomEvent(random, nextEventId + offset, allIds)),
  ];
  index.upsertEvents(events);
  for (const event of events) model.events.set(event.event_id, event);
  // Without changes to the list, the suppressed sets are kept up to date contact by contact.
  if (!suppressionsToo) return;
  const suppressions = Array.from({ length: 20 }, () => randomSuppression(random));
  index.upsertSuppressions(suppressions);
  for (const entry of suppressions) model.suppressions.set(entry.id, entry);
}

function compare(random: Random, index: WorkspaceIndex, model: Model, filters: number): void {
  const known = [...model.contacts.keys()].filter((id) => model.contacts.has(id));
  for (const id of [1, 2]) model.audiences.set(id, new Set(known.filter(() => random() < 0.4)));
  const audiences = new Map<number, Bitset>(
    [...model.audiences].map(([id, members]) => [id, index.idsToSet(members)]),
  );
  let telling = 0;
  for (let run = 0; run < filters; run += 1) {
    const criteria = randomCriteria(random);
    const set = index.evaluate(criteria, { now: NOW, audience: (id) => audiences.get(id)! });
    const expected = referenceMatches(model, criteria);
    if (expected.length > 0 && expected.length < model.contacts.size) telling += 1;
    expect({ criteria, ids: index.members(set) }).toEqual({ criteria, ids: expected });
    expect(index.count(set)).toBe(expected.length);
    expect(index.sample(set, 5)).toEqual(expected.slice(0, 5));
    expect(index.reachable(set)).toEqual(referenceReachable(model, expected));
  }
  // The comparison means something only if most filters tell contacts apart.
  expect(telling).toBeGreaterThan(filters * 0.6);
}

describe('filter evaluation against a plain reading of the contract', () => {
  for (const seed of [1, 2, 3]) {
    it(`answers as the contract reads, contact by contact, before and after changes (seed ${seed})`, () => {
      const random = seededRandom(seed);
      const built = workspace(random);
      compare(random, built.index, built.model, 300);
      change(random, built, built.nextEventId, false);
      compare(random, built.index, built.model, 300);
      change(random, built, built.nextEventId + 1000, true);
      compare(random, built.index, built.model, 200);
    });
  }
});
