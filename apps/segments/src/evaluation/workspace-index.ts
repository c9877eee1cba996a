import {
  CHANNEL_TYPES,
  CONSENT_CHANNELS,
  resolveDataPath,
  type ChannelType,
  type ConsentChannel,
  type DateField,
  type FilterNode,
  type LinkChannel,
  type PhoneNormaliser,
  type TextField,
} from '@cms/contracts';

import { Bitset, RowBits, popcount32 } from './bitset';
import { DataColumn, ensureRows } from './data-column';
import { DataLog } from './data-log';
import { EventStore, type ContactEventRow } from './event-store';
import { evaluateFilter, type EvaluationContext, type IndexColumns } from './filter-evaluation';
import { IdTable } from './id-table';
import { SuppressionList, type SuppressionEntryRow } from './suppression-list';
import { TextColumn } from './text-column';

// Read once: globals looked up inside loops over a million rows are slow in some hosts (a vm
// context, as test runners use), and cost nothing to hoist.
const { clz32 } = Math;

/** A contact as the index takes it (times in epoch ms). */
export interface ContactRow {
  id: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  external_id: string | null;
  source: string | null;
  data: Record<string, unknown>;
  marketing_consent: Record<ConsentChannel, boolean | null>;
  channels: Record<LinkChannel, string | null>;
  tag_ids: number[];
  created_at: number;
  updated_at: number;
}

export interface WorkspaceIndexOptions {
  /** How the contacts service writes a phone number in E.164 (filter values on `phone` are read so). */
  phoneE164: PhoneNormaliser;
}

/** The identifier a channel type sends to: the phone number, the e-mail address or a linked id. */
const IDENTIFIER_OF: Record<ChannelType, TextField | LinkChannel> = {
  whatsapp: 'phone',
  sms: 'phone',
  rcs: 'phone',
  email: 'email',
  telegram: 'telegram',
  messenger: 'messenger',
  instagram: 'instagram',
  browser_push: 'browser_push',
};

/**
 * The consent channels, copied once: an imported binding read in a loop over a million rows goes
 * through the re-export getters of the contracts library on every read.
 */
const CONSENT_ORDER: readonly ConsentChannel[] = [...CONSENT_CHANNELS];
const CHANNEL_ORDER: readonly ChannelType[] = [...CHANNEL_TYPES];

/**
 * One workspace's contacts, their events and the suppression list, held column by column over dense
 * row numbers (a contact's row is given when it is first added and kept), so that a filter over a
 * million contacts is a few scans of typed arrays and word-wise set operations:
 *
 * - text fields: a lower-case UTF-8 log per field with a hash per row (TextColumn);
 * - created_at, updated_at: Float64Array of epoch ms;
 * - tags: a bitset per tag id; consent: a bitset per channel for true and one for false;
 * - linked channel ids: a TextColumn per channel (kept as sent, trimmed);
 * - custom fields: every contact's `data` packed off the heap (DataLog), and a typed column per path
 *   (DataColumn) built the first time a filter names the path, then kept up to date;
 * - events: per name, every occurrence's row and time (EventStore).
 *
 * Writes are incremental: a changed contact rewrites its row in every column, including the data
 * columns already built. Nothing here reads a database: the caller loads rows and calls the upserts.
 */
export class WorkspaceIndex implements IndexColumns {
  readonly phoneE164: PhoneNormaliser;
  readonly events = new EventStore();

  private rows = 0;
  private ids: Float64Array = new Float64Array(1024);
  private readonly rowOf = new IdTable();
  private readonly textColumns: Record<TextField, TextColumn> = {
    name: new TextColumn(true),
    phone: new TextColumn(true),
    email: new TextColumn(true),
    external_id: new TextColumn(true),
    source: new TextColumn(true),
  };
  /** Linked ids keep their case: the suppression list compares them as sent. */
  private readonly linkColumns: Record<LinkChannel, TextColumn> = {
    telegram: new TextColumn(false),
    messenger: new TextColumn(false),
    instagram: new TextColumn(false),
    browser_push: new TextColumn(false),
  };
  private readonly timeColumns: Record<DateField, Float64Array> = {
    created_at: new Float64Array(1024).fill(Number.NaN),
    updated_at: new Float64Array(1024).fill(Number.NaN),
  };
  /** Per consent channel (in CONSENT_CHANNELS order): the rows with `true`, and those with `false`. */
  private readonly consentTrue = CONSENT_ORDER.map(() => new RowBits());
  private readonly consentFalse = CONSENT_ORDER.map(() => new RowBits());
  private readonly tagColumns = new Map<number, RowBits>();
  private readonly dataLog = new DataLog();
  private readonly dataColumns = new Map<string, DataColumn>();
  private readonly suppressions = new SuppressionList();
  /** Per channel type, the rows whose identifier is suppressed, as of a version of the list. */
  private readonly suppressedRows = new Map<ChannelType, { version: number; rows: RowBits }>();

  constructor(options: WorkspaceIndexOptions) {
    this.phoneE164 = options.phoneE164;
  }

  /** Rows in the index: every contact ever added. */
  get size(): number {
    return this.rows;
  }

  // --- writes ---------------------------------------------------------------------------------

  /**
   * Makes room for a full load of this many more contacts and events, so the id tables are sized
   * once instead of growing (and rehashing) on the way.
   */
  reserve(counts: { contacts?: number; events?: number }): void {
    this.rowOf.reserve(this.rowOf.size + (counts.contacts ?? 0));
    this.events.reserve(counts.events ?? 0);
  }

  /** Adds contacts, or rewrites the rows of contacts already in the index. */
  upsertContacts(contacts: readonly ContactRow[]): void {
    this.rowOf.reserve(this.rowOf.size + contacts.length);
    for (const contact of contacts) this.upsertContact(contact);
  }

  /** Adds events, or corrects the events with these ids. */
  upsertEvents(events: readonly ContactEventRow[]): void {
    this.events.reserve(events.length);
    for (const event of events) this.events.upsert(event, this.rowOf.get(event.contact_id));
  }

  /** Adds active entries; an inactive entry removes its id. */
  upsertSuppressions(entries: readonly SuppressionEntryRow[]): void {
    for (const entry of entries) this.suppressions.upsert(entry);
  }

  /** Every column written field by field: a loop over field names would cost a lookup per field and row. */
  private upsertContact(contact: ContactRow): void {
    let row = this.rowOf.get(contact.id);
    const added = row < 0;
    if (added) {
      row = this.rows;
      this.rows += 1;
      this.rowOf.set(contact.id, row);
      this.ids = ensureRows(this.ids, row);
      this.ids[row] = contact.id;
    }
    const text = this.textColumns;
    text.name.set(row, contact.name);
    text.phone.set(row, contact.phone);
    text.email.set(row, contact.email);
    text.external_id.set(row, contact.external_id);
    text.source.set(row, contact.source);
    const links = this.linkColumns;
    const channels = contact.channels;
    links.telegram.set(row, linkedId(channels.telegram));
    links.messenger.set(row, linkedId(channels.messenger));
    links.instagram.set(row, linkedId(channels.instagram));
    links.browser_push.set(row, linkedId(channels.browser_push));
    const times = this.timeColumns;
    if (row >= times.created_at.length) {
      times.created_at = ensureRows(times.created_at, row);
      times.updated_at = ensureRows(times.updated_at, row);
    }
    times.created_at[row] = contact.created_at;
    times.updated_at[row] = contact.updated_at;
    const consent = contact.marketing_consent;
    for (let channel = 0; channel < CONSENT_ORDER.length; channel += 1) {
      const value = consent[CONSENT_ORDER[channel]!];
      this.consentTrue[channel]!.set(row, value === true);
      this.consentFalse[channel]!.set(row, value === false);
    }
    // A new row has no tags to take away; an existing one is cleared in every tag's bitset.
    if (!added) for (const tagged of this.tagColumns.values()) tagged.set(row, false);
    for (const tagId of contact.tag_ids) {
      let tagged = this.tagColumns.get(tagId);
      if (tagged === undefined) {
        tagged = new RowBits();
        this.tagColumns.set(tagId, tagged);
      }
      tagged.set(row, true);
    }
    this.dataLog.set(row, contact.data);
    for (const column of this.dataColumns.values())
      column.set(row, resolveDataPath(contact.data, column.path));
    if (this.suppressedRows.size > 0) this.recheckSuppressed(row);
    if (added) this.events.attach(contact.id, row);
  }

  // --- evaluation -----------------------------------------------------------------------------

  /** The rows of the contacts matching every item of `criteria` (an empty filter matches all). */
  evaluate(criteria: readonly FilterNode[], context: EvaluationContext): Bitset {
    return evaluateFilter(this, criteria, context);
  }

  /** Every contact's row. */
  all(): Bitset {
    return Bitset.full(this.rows);
  }

  count(set: Bitset): number {
    return set.count();
  }

  /** The rows of the contacts with these ids; ids the index does not hold are left out. */
  idsToSet(ids: Iterable<number>): Bitset {
    const set = new Bitset(this.rows);
    for (const id of ids) {
      const row = Number.isSafeInteger(id) && id > 0 ? this.rowOf.get(id) : -1;
      if (row >= 0) set.add(row);
    }
    return set;
  }

  /**
   * The `limit` smallest contact ids of the set, ascending. Rows are in arrival order, not id order:
   * a bounded max-heap keeps the smallest ids seen while the set is walked once, so a million
   * members cost one pass and no sort. With `after`, the smallest ids above it: the members' next page.
   */
  sample(set: Bitset, limit: number, after = 0): number[] {
    if (limit <= 0) return [];
    const heap = new Float64Array(limit);
    let filled = 0;
    const ids = this.ids;
    const words = set.words;
    const end = Math.min(words.length, (this.rows + 31) >>> 5);
    for (let w = 0; w < end; w += 1) {
      let word = words[w]!;
      while (word !== 0) {
        const low = word & -word;
        word ^= low;
        const row = (w << 5) + 31 - clz32(low);
        if (row >= this.rows) break;
        const id = ids[row]!;
        if (id <= after) continue;
        if (filled < limit) {
          heap[filled] = id;
          filled += 1;
          siftUp(heap, filled - 1);
        } else if (id < heap[0]!) {
          heap[0] = id;
          siftDown(heap, filled);
        }
      }
    }
    return Array.from(heap.subarray(0, filled).sort());
  }

  /** Every contact id of the set, ascending. */
  members(set: Bitset): number[] {
    const ids = new Float64Array(set.count());
    let next = 0;
    set.forEach((row) => {
      if (row < this.rows) {
        ids[next] = this.ids[row]!;
        next += 1;
      }
    });
    return Array.from(ids.subarray(0, next).sort());
  }

  /** The contact id of a row. */
  contactId(row: number): number {
    return this.ids[row]!;
  }

  /**
   * For each channel type, how many contacts of the set could receive a marketing message on it
   * now: an identifier for the channel, consent `true` for it, and no active suppression entry for
   * (channel type, that identifier).
   */
  reachable(set: Bitset): Record<ChannelType, number> {
    const counts = {} as Record<ChannelType, number>;
    for (const channel of CHANNEL_ORDER) {
      const identified = this.identifierColumn(channel).presence.words;
      const consented = this.consent(channel, true).words;
      const suppressed = this.suppressed(channel).words;
      const words = set.words;
      const end = Math.min(words.length, identified.length, consented.length);
      let total = 0;
      for (let w = 0; w < end; w += 1) {
        const blocked = w < suppressed.length ? suppressed[w]! : 0;
        total += popcount32(words[w]! & identified[w]! & consented[w]! & ~blocked);
      }
      counts[channel] = total;
    }
    return counts;
  }

  // --- columns (IndexColumns) -----------------------------------------------------------------

  text(field: TextField): TextColumn {
    return this.textColumns[field];
  }

  times(field: DateField): Float64Array {
    return this.timeColumns[field];
  }

  tag(id: number): RowBits | undefined {
    return this.tagColumns.get(id);
  }

  consent(channel: ConsentChannel, value: boolean): RowBits {
    const index = CONSENT_ORDER.indexOf(channel);
    return value ? this.consentTrue[index]! : this.consentFalse[index]!;
  }

  link(channel: LinkChannel): TextColumn {
    return this.linkColumns[channel];
  }

  /** The column of a custom-field path, built from every contact's packed `data` on first use. */
  dataColumn(path: readonly string[]): DataColumn {
    const key = path.join('.');
    let column = this.dataColumns.get(key);
    if (column === undefined) {
      column = new DataColumn(path);
      const read = this.dataLog.pathReader(path);
      for (let row = 0; row < this.rows; row += 1) column.set(row, read(row));
      this.dataColumns.set(key, column);
    }
    return column;
  }

  /**
   * The rows whose identifier for the channel type is on the suppression list. Worked out from the
   * whole list after the list changed (one pass over the identifier column), and kept up to date row
   * by row as contacts change in between, so a stream of contact writes costs previews nothing.
   */
  private suppressed(channel: ChannelType): RowBits {
    const version = this.suppressions.version(channel);
    const known = this.suppressedRows.get(channel);
    if (known?.version === version) return known.rows;
    const rows = new RowBits();
    if (this.suppressions.any(channel)) {
      const found = new Bitset(this.rows);
      this.identifierColumn(channel).equalsAny(this.suppressions.addresses(channel), found);
      rows.words = found.words;
    }
    this.suppressedRows.set(channel, { version, rows });
    return rows;
  }

  /** After a contact's identifiers were written: its row in the suppressed sets kept up to date. */
  private recheckSuppressed(row: number): void {
    for (const channel of CHANNEL_ORDER) {
      const known = this.suppressedRows.get(channel);
      if (known === undefined || known.version !== this.suppressions.version(channel)) continue;
      const identifier = this.identifierColumn(channel).value(row);
      known.rows.set(row, identifier !== null && this.suppressions.has(channel, identifier));
    }
  }

  private identifierColumn(channel: ChannelType): TextColumn {
    const identifier = IDENTIFIER_OF[channel];
    return identifier === 'phone' || identifier === 'email'
      ? this.text(identifier)
      : this.link(identifier as LinkChannel);
  }
}

/** A linked channel id as the suppression list keeps it (trimmed); blank is none. */
function linkedId(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function siftUp(heap: Float64Array, index: number): void {
  let child = index;
  while (child > 0) {
    const parent = (child - 1) >>> 1;
    if (heap[parent]! >= heap[child]!) return;
    [heap[parent], heap[child]] = [heap[child]!, heap[parent]!];
    child = parent;
  }
}

function siftDown(heap: Float64Array, size: number): void {
  let parent = 0;
  for (;;) {
    const left = parent * 2 + 1;
    if (left >= size) return;
    const right = left + 1;
    const larger = right < size && heap[right]! > heap[left]! ? right : left;
    if (heap[parent]! >= heap[larger]!) return;
    [heap[parent], heap[larger]] = [heap[larger]!, heap[parent]!];
    parent = larger;
  }
}
