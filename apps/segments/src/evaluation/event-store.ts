import type { TimeRange } from '@cms/contracts';

import { Bitset } from './bitset';
import { grownCapacity } from './capacity';
import { IdTable } from './id-table';

// Read once: globals looked up inside loops over a million rows are slow in some hosts (a vm
// context, as test runners use), and cost nothing to hoist.
const { floor } = Math;
const NO_TIME = Number.NaN;

/** An event of a contact as filters read it. */
export interface ContactEventRow {
  event_id: number;
  contact_id: number;
  name: string;
  occurred_at: number;
}

const SLOT_SPAN = 2 ** 32;

/** One event name's occurrences in arrival order: the contact's row and when (ms). */
class NameLog {
  rows = new Int32Array(64);
  times = new Float64Array(64);
  length = 0;

  append(row: number, time: number): number {
    if (this.length === this.rows.length) {
      const size = grownCapacity(this.length, this.length + 1, 64);
      const rows = new Int32Array(size);
      rows.set(this.rows);
      const times = new Float64Array(size);
      times.set(this.times);
      this.rows = rows;
      this.times = times;
    }
    this.rows[this.length] = row;
    this.times[this.length] = time;
    this.length += 1;
    return this.length - 1;
  }
}

/**
 * Contacts' events per name, each name's occurrences in two typed arrays. A condition on an event
 * reads one name's arrays from end to end (a few million entries take milliseconds), counting per
 * contact only when it asks for more than one occurrence. Events are kept by id, so an event
 * delivered twice, or corrected, is one occurrence. An event that arrives before its contact waits,
 * without a row, until the contact is added.
 */
export class EventStore {
  private readonly names = new Map<string, number>();
  private readonly logs: NameLog[] = [];
  /** Event id → name index · 2^32 + slot in that name's log. */
  private readonly slots = new IdTable();
  /** Events of contacts not in the index yet: contact id → event ids, and event id → contact id. */
  private readonly waiting = new Map<number, number[]>();
  private readonly waitingFor = new Map<number, number>();

  get size(): number {
    return this.slots.size;
  }

  /** Makes room for `count` more events (a full load), so the id table is not rehashed on the way. */
  reserve(count: number): void {
    this.slots.reserve(this.slots.size + count);
  }

  /** Records an event; `row` is its contact's row, or -1 while the contact is not known. */
  upsert(event: ContactEventRow, row: number): void {
    if (this.waitingFor.size > 0) this.waitingFor.delete(event.event_id);
    let nameIndex = this.names.get(event.name);
    if (nameIndex === undefined) {
      nameIndex = this.logs.length;
      this.names.set(event.name, nameIndex);
      this.logs.push(new NameLog());
    }
    const log = this.logs[nameIndex]!;
    // Where a new event goes: the end of its name's log. Most events are new, so one probe of the
    // id table both finds a known event and records a new one.
    const known = this.slots.putIfAbsent(event.event_id, nameIndex * SLOT_SPAN + log.length);
    if (known < 0) {
      log.append(row, event.occurred_at);
    } else if (floor(known / SLOT_SPAN) === nameIndex) {
      const slot = known % SLOT_SPAN;
      log.rows[slot] = row;
      log.times[slot] = event.occurred_at;
    } else {
      // Renamed: the old occurrence no longer counts under its old name.
      const old = this.logs[floor(known / SLOT_SPAN)]!;
      old.rows[known % SLOT_SPAN] = -1;
      old.times[known % SLOT_SPAN] = NO_TIME;
      this.slots.set(event.event_id, nameIndex * SLOT_SPAN + log.append(row, event.occurred_at));
    }
    if (row < 0) {
      this.waitingFor.set(event.event_id, event.contact_id);
      const list = this.waiting.get(event.contact_id) ?? [];
      list.push(event.event_id);
      this.waiting.set(event.contact_id, list);
    }
  }

  /** A contact was added at `row`: its events that arrived first now count for it. */
  attach(contactId: number, row: number): void {
    const eventIds = this.waiting.get(contactId);
    if (eventIds === undefined) return;
    this.waiting.delete(contactId);
    for (const eventId of eventIds) {
      if (this.waitingFor.get(eventId) !== contactId) continue;
      this.waitingFor.delete(eventId);
      const packed = this.slots.get(eventId);
      this.logs[floor(packed / SLOT_SPAN)]!.rows[packed % SLOT_SPAN] = row;
    }
  }

  /**
   * The rows with at least `count` events named `name` (in `window` when given, by occurred_at),
   * among the first `size` rows. `count` 0 is every row.
   */
  atLeast(name: string, count: number, window: TimeRange | null, size: number): Bitset {
    if (count <= 0) return Bitset.full(size);
    const out = new Bitset(size);
    const nameIndex = this.names.get(name);
    if (nameIndex === undefined) return out;
    const { rows, times, length } = this.logs[nameIndex]!;
    const from = window?.from ?? Number.NEGATIVE_INFINITY;
    const until = window?.until ?? Number.POSITIVE_INFINITY;
    if (count === 1) {
      for (let slot = 0; slot < length; slot += 1) {
        const row = rows[slot]!;
        const time = times[slot]!;
        if (row >= 0 && row < size && time >= from && time < until) out.add(row);
      }
      return out;
    }
    const counts = new Uint32Array(size);
    for (let slot = 0; slot < length; slot += 1) {
      const row = rows[slot]!;
      const time = times[slot]!;
      if (row >= 0 && row < size && time >= from && time < until) {
        counts[row]! += 1;
        if (counts[row] === count) out.add(row);
      }
    }
    return out;
  }
}
