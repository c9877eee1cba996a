import type { UndoScope } from '@cms/kafka';
import { idFromDatabase } from '@cms/persistence';
import type { EntityManager } from 'typeorm';

import { ContactsException } from '../decisions/contacts.exception';
import type { EventEntity } from '../events/event.entity';
import type { ConsentChangeEntity } from '../contacts/consent-change.entity';
import { ContactEntity } from '../contacts/contact.entity';
import { ContactRepository, type ContactView, type TagSummary } from '../contacts/contact.repository';
import type { ContactChannelEntity } from '../contacts/contact-channel.entity';
import type { ContactStore } from '../contacts/contact-store';
import type { ImportChunkEntity } from '../contacts/import-chunk.entity';

/** What a chunk of records can look up: loaded before the records are decided. */
export interface ChunkKeys {
  workspaces: Set<number>;
  /** Contacts by id (updates) and ids a new contact would take. */
  contactIds: Set<number>;
  /** `workspace\0phone`, `workspace\0external id`, `workspace\0email`. */
  phones: Set<string>;
  externalIds: Set<string>;
  emails: Set<string>;
  eventIds: Set<number>;
  /** `workspace\0idempotency key`. */
  idempotencyKeys: Set<string>;
  /** importChunkKey of each import chunk a record decides. */
  importChunks: Set<string>;
}

export function emptyKeys(): ChunkKeys {
  return {
    workspaces: new Set(),
    contactIds: new Set(),
    phones: new Set(),
    externalIds: new Set(),
    emails: new Set(),
    eventIds: new Set(),
    idempotencyKeys: new Set(),
    importChunks: new Set(),
  };
}

export function keyOf(workspaceId: number, value: string): string {
  return `${workspaceId}\u0000${value}`;
}

/** An import job's chunk in a workspace (ChunkKeys.importChunks). */
export function importChunkKey(workspaceId: number, jobId: number, chunk: number): string {
  return `${workspaceId}/${jobId}/${chunk}`;
}

function split(keys: Set<string>): [number[], string[]] {
  const workspaces: number[] = [];
  const values: string[] = [];
  for (const key of keys) {
    const at = key.indexOf('\u0000');
    workspaces.push(Number(key.slice(0, at)));
    values.push(key.slice(at + 1));
  }
  return [workspaces, values];
}

/** A lookup the loaded state cannot answer; the chunk is then applied one record at a time. */
export class ChunkStateIncompleteError extends Error {
  constructor(what: string) {
    super(`the chunk's state was not loaded for ${what}`);
    this.name = 'ChunkStateIncompleteError';
  }
}

/**
 * What `value` reads back as once stored as jsonb, so that a later record of the chunk sees what it
 * would see reading the row: its JSON parsed again (a number JSON cannot write is null, -0 is 0, what
 * JSON leaves out of an object is gone and out of an array is null), with the members of every object
 * in jsonb's order (length, then bytes). Values as JSON parses them are walked, without writing and
 * parsing their JSON (a contact's data is up to 64 KiB of it); anything else takes that round trip.
 */
function asStored<T>(value: T): T {
  return storedValue(value) as T;
}

function storedValue(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value + 0 : null;
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        const items: unknown[] = [];
        for (let index = 0; index < value.length; index += 1) {
          items.push(storedValue(value[index] as unknown) ?? null);
        }
        return items;
      }
      const object = value as Record<string, unknown>;
      if (Object.getPrototypeOf(object) !== Object.prototype || typeof object.toJSON === 'function') {
        return roundTrip(object);
      }
      const ordered: Record<string, unknown> = {};
      for (const key of Object.keys(object).sort(jsonbKeyOrder)) {
        const member = storedValue(object[key]);
        if (member !== undefined) ordered[key] = member;
      }
      return ordered;
    }
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      return roundTrip(value);
  }
}

/** The value's JSON parsed again and put in jsonb's order (JSON.stringify refuses a bigint, as before). */
function roundTrip(value: unknown): unknown {
  const json = JSON.stringify(value);
  return json === undefined ? undefined : storedValue(JSON.parse(json) as unknown);
}

function jsonbKeyOrder(a: string, b: string): number {
  // Most keys are ASCII (every value time's is): one byte a character, so bytes compare as characters.
  if (isAscii(a) && isAscii(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length - right.length || Buffer.compare(left, right);
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    if (text.charCodeAt(index) > 0x7f) return false;
  }
  return true;
}

function storedContact(contact: ContactEntity): ContactEntity {
  return Object.assign(new ContactEntity(), contact, {
    data: asStored(contact.data),
    marketingConsent: asStored(contact.marketingConsent),
    valueTimes: asStored(contact.valueTimes),
    createdAt: new Date(contact.createdAt.getTime()),
    updatedAt: new Date(contact.updatedAt.getTime()),
  });
}

function copyContact(contact: ContactEntity): ContactEntity {
  return Object.assign(new ContactEntity(), contact);
}

function copyEvent(event: EventEntity): EventEntity {
  return { ...event };
}

/** Ids are bigint, which pg hands over as text (idFromDatabase). */
interface ContactRow {
  id: string;
  workspace_id: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  external_id: string | null;
  source: string | null;
  data: Record<string, unknown>;
  marketing_consent: ContactEntity['marketingConsent'];
  value_times: ContactEntity['valueTimes'];
  created_at: Date;
  updated_at: Date;
  email_lower: string | null;
}

interface EventRow {
  id: string;
  workspace_id: string;
  name: string;
  contact_id: string;
  data: Record<string, unknown>;
  occurred_at: Date;
  received_at: Date;
  idempotency_key: string | null;
}

const CONTACT_COLUMNS =
  'id, workspace_id, name, phone, email, external_id, source, data, marketing_consent, value_times, created_at, updated_at';
const CONSENT_COLUMNS =
  'id, workspace_id, contact_id, channel, granted, previous, source, occurred_at, recorded_at';
const EVENT_COLUMNS = 'id, workspace_id, name, contact_id, data, occurred_at, received_at, idempotency_key';

/**
 * Ends a LATERAL subquery that looks one key up, so that the planner keeps it as an index probe per
 * key. Flattened into a join, a chunk of thousands of keys is planned as a hash join over a scan of
 * the whole table (32 ms at 180,000 contacts, and growing with the table: a rebuild slowed down as it
 * went), where the probes take 7 ms whatever the table's size.
 */
const ONE_PROBE_EACH = 'OFFSET 0';

const CONTACT_SELECT = `SELECT c.id, c.workspace_id, c.name, c.phone, c.email, c.external_id, c.source, c.data,
  c.marketing_consent, c.value_times, c.created_at, c.updated_at, lower(c.email) AS email_lower FROM contacts c`;

/**
 * The state a run of records can read, loaded in a few statements, then read and written in memory
 * while the records are decided in order; `flush` writes what they changed with one statement per
 * table. A refused record is undone with `rollback` to the `mark` taken before it.
 */
export class ChunkContactStore implements ContactStore {
  private readonly contacts = new Map<number, ContactEntity>();
  /** lower(email) of each stored contact, as Postgres lowers it. */
  private readonly emailLower = new Map<number, string | null>();
  /** Postgres' lower() of every email the chunk's records carry. */
  private readonly lowered = new Map<string, string>();
  /** Per key, every contact that held it at some point: a lookup checks the contact's values now. */
  private readonly byPhone = new Map<string, Set<number>>();
  private readonly byExternalId = new Map<string, Set<number>>();
  private readonly byEmail = new Map<string, Set<number>>();
  private readonly views = new Map<number, { tags: TagSummary[]; channels: ContactChannelEntity[] }>();
  private readonly created = new Set<number>();
  private readonly updated = new Set<number>();
  private readonly usage = new Map<number, number>();
  /** The limit of each workspace's latest plan record, where one set a limit. */
  private readonly limits = new Map<number, number>();
  /** The phone, external id and email each loaded contact had in the database. */
  private readonly storedIdentity = new Map<number, string>();
  private readonly counted = new Map<number, number>();
  private readonly eventIds = new Set<number>();
  private readonly eventsByKey = new Map<string, EventEntity>();
  private readonly newEvents: EventEntity[] = [];
  private readonly consentChanges: ConsentChangeEntity[] = [];
  /** importChunkKey of the chunks decided, stored or in this chunk of records. */
  private readonly decidedImportChunks = new Set<string>();
  private readonly newImportChunks: ImportChunkEntity[] = [];
  private readonly undo: Array<() => void> = [];

  private constructor(private readonly keys: ChunkKeys) {}

  /** A part of a decision refused by the rules leaves nothing behind in the chunk's state. */
  readonly undoScope: UndoScope = async (work) => {
    const mark = this.mark();
    try {
      return await work();
    } catch (error) {
      this.rollback(mark);
      throw error;
    }
  };

  static async load(manager: EntityManager, keys: ChunkKeys): Promise<ChunkContactStore> {
    const store = new ChunkContactStore(keys);
    const [phoneWorkspaces, phones] = split(keys.phones);
    const [externalWorkspaces, externalIds] = split(keys.externalIds);
    const [emailWorkspaces, emails] = split(keys.emails);
    // Each key finds the id of its contact, and each contact found is read once: an import row's or
    // an event's phone and email mostly find the same contact, whose whole row (with its jsonb) came
    // back once for each (matching 20,000 import rows took 40% longer so).
    const rows: ContactRow[] = await manager.query(
      `WITH found AS (
         SELECT c.id FROM contacts c WHERE c.id = ANY($1::bigint[])
         UNION ALL SELECT c.id FROM unnest($2::bigint[], $3::text[]) AS k(w, v)
           CROSS JOIN LATERAL (SELECT c.id FROM contacts c
                                WHERE c.workspace_id = k.w AND c.phone = k.v ${ONE_PROBE_EACH}) c
         UNION ALL SELECT c.id FROM unnest($4::bigint[], $5::text[]) AS k(w, v)
           CROSS JOIN LATERAL (SELECT c.id FROM contacts c
                                WHERE c.workspace_id = k.w AND c.external_id = k.v ${ONE_PROBE_EACH}) c
         UNION ALL SELECT c.id FROM unnest($6::bigint[], $7::text[]) AS k(w, v)
           CROSS JOIN LATERAL (SELECT c.id FROM contacts c
                                WHERE c.workspace_id = k.w AND lower(c.email) = lower(k.v) ${ONE_PROBE_EACH}) c)
       ${CONTACT_SELECT} WHERE c.id = ANY(ARRAY(SELECT DISTINCT id FROM found))`,
      [
        [...keys.contactIds],
        phoneWorkspaces,
        phones,
        externalWorkspaces,
        externalIds,
        emailWorkspaces,
        emails,
      ],
    );
    const loaded: ContactEntity[] = [];
    for (const row of rows) {
      if (store.contacts.has(idFromDatabase(row.id))) continue;
      const contact = Object.assign(new ContactEntity(), {
        id: idFromDatabase(row.id),
        workspaceId: idFromDatabase(row.workspace_id),
        name: row.name,
        phone: row.phone,
        email: row.email,
        externalId: row.external_id,
        source: row.source,
        data: row.data,
        marketingConsent: row.marketing_consent,
        valueTimes: row.value_times,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      });
      store.contacts.set(contact.id, contact);
      store.emailLower.set(contact.id, row.email_lower);
      if (row.email !== null && row.email_lower !== null) store.lowered.set(row.email, row.email_lower);
      store.index(contact);
      store.storedIdentity.set(contact.id, identityOf(contact));
      loaded.push(contact);
    }
    const everyEmail = [...new Set(emails)];
    if (everyEmail.length > 0) {
      const lowered: Array<{ email: string; lower: string }> = await manager.query(
        'SELECT e AS email, lower(e) AS lower FROM unnest($1::text[]) AS e',
        [everyEmail],
      );
      for (const { email, lower } of lowered) store.lowered.set(email, lower);
    }
    for (const view of await new ContactRepository(manager).views(loaded)) {
      store.views.set(view.contact.id, { tags: view.tags, channels: view.channels });
    }
    const [keyWorkspaces, idempotencyKeys] = split(keys.idempotencyKeys);
    if (keys.eventIds.size > 0 || idempotencyKeys.length > 0) {
      const events: EventRow[] = await manager.query(
        `SELECT e.* FROM events e WHERE e.id = ANY($1::bigint[])
         UNION ALL SELECT e.* FROM unnest($2::bigint[], $3::text[]) AS k(w, v)
           CROSS JOIN LATERAL (SELECT e.* FROM events e
                                WHERE e.workspace_id = k.w AND e.idempotency_key = k.v ${ONE_PROBE_EACH}) e`,
        [[...keys.eventIds], keyWorkspaces, idempotencyKeys],
      );
      for (const row of events) {
        store.eventIds.add(idFromDatabase(row.id));
        if (row.idempotency_key === null) continue;
        store.eventsByKey.set(keyOf(idFromDatabase(row.workspace_id), row.idempotency_key), {
          id: idFromDatabase(row.id),
          workspaceId: idFromDatabase(row.workspace_id),
          name: row.name,
          contactId: idFromDatabase(row.contact_id),
          data: row.data,
          occurredAt: row.occurred_at,
          receivedAt: row.received_at,
          idempotencyKey: row.idempotency_key,
        });
      }
    }
    if (keys.importChunks.size > 0) {
      const chunks = [...keys.importChunks].map((key) => key.split('/').map(Number));
      const decided: Array<{ workspace_id: string; job_id: string; chunk: number }> = await manager.query(
        `SELECT i.workspace_id, i.job_id, i.chunk FROM import_chunks i
           JOIN unnest($1::bigint[], $2::bigint[], $3::integer[]) AS k(w, j, c)
             ON i.workspace_id = k.w AND i.job_id = k.j AND i.chunk = k.c`,
        [chunks.map((key) => key[0]), chunks.map((key) => key[1]), chunks.map((key) => key[2])],
      );
      for (const row of decided) {
        store.decidedImportChunks.add(
          importChunkKey(idFromDatabase(row.workspace_id), idFromDatabase(row.job_id), row.chunk),
        );
      }
    }
    if (keys.workspaces.size > 0) {
      const usage: Array<{ workspace_id: string; contacts: number; contact_limit: number | null }> =
        await manager.query(
          `SELECT workspace_id, contacts, contact_limit FROM workspace_usage
           WHERE workspace_id = ANY($1::bigint[])`,
          [[...keys.workspaces]],
        );
      for (const row of usage) {
        const workspaceId = idFromDatabase(row.workspace_id);
        store.usage.set(workspaceId, row.contacts);
        if (row.contact_limit !== null) store.limits.set(workspaceId, row.contact_limit);
      }
    }
    return store;
  }

  /** Where the records decided so far have left the state. */
  mark(): number {
    return this.undo.length;
  }

  /** Undoes every write since `mark`. */
  rollback(mark: number): void {
    while (this.undo.length > mark) this.undo.pop()!();
  }

  private index(contact: ContactEntity): void {
    const add = (map: Map<string, Set<number>>, value: string | null) => {
      if (value === null) return;
      const key = keyOf(contact.workspaceId, value);
      let ids = map.get(key);
      if (!ids) map.set(key, (ids = new Set()));
      ids.add(contact.id);
    };
    add(this.byPhone, contact.phone);
    add(this.byExternalId, contact.externalId);
    add(this.byEmail, this.emailLower.get(contact.id) ?? null);
  }

  private lowerOf(email: string | null): string | null {
    if (email === null) return null;
    const lower = this.lowered.get(email);
    if (lower === undefined) throw new ChunkStateIncompleteError(`lower(${JSON.stringify(email)})`);
    return lower;
  }

  /** The stored contact with the lowest id among `ids` in the workspace whose value still matches. */
  private oldest(
    ids: Set<number> | undefined,
    matches: (contact: ContactEntity) => boolean,
  ): ContactEntity | null {
    let found: ContactEntity | null = null;
    for (const id of ids ?? []) {
      const contact = this.contacts.get(id);
      if (contact && matches(contact) && (found === null || contact.id < found.id)) found = contact;
    }
    return found ? copyContact(found) : null;
  }

  private need(keys: Set<string>, key: string, what: string): void {
    if (!keys.has(key)) throw new ChunkStateIncompleteError(what);
  }

  contact(workspaceId: number, id: number): Promise<ContactEntity | null> {
    if (!this.keys.contactIds.has(id) && !this.created.has(id)) {
      throw new ChunkStateIncompleteError(`contact ${id}`);
    }
    const contact = this.contacts.get(id);
    return Promise.resolve(contact && contact.workspaceId === workspaceId ? copyContact(contact) : null);
  }

  contactByPhone(workspaceId: number, phone: string): Promise<ContactEntity | null> {
    const key = keyOf(workspaceId, phone);
    this.need(this.keys.phones, key, `phone ${phone}`);
    return Promise.resolve(
      this.oldest(
        this.byPhone.get(key),
        (contact) => contact.workspaceId === workspaceId && contact.phone === phone,
      ),
    );
  }

  contactByExternalId(workspaceId: number, externalId: string): Promise<ContactEntity | null> {
    const key = keyOf(workspaceId, externalId);
    this.need(this.keys.externalIds, key, `external id ${externalId}`);
    return Promise.resolve(
      this.oldest(
        this.byExternalId.get(key),
        (contact) => contact.workspaceId === workspaceId && contact.externalId === externalId,
      ),
    );
  }

  contactByEmail(workspaceId: number, email: string): Promise<ContactEntity | null> {
    this.need(this.keys.emails, keyOf(workspaceId, email), `email ${email}`);
    const lower = this.lowerOf(email)!;
    return Promise.resolve(
      this.oldest(
        this.byEmail.get(keyOf(workspaceId, lower)),
        (contact) => contact.workspaceId === workspaceId && this.emailLower.get(contact.id) === lower,
      ),
    );
  }

  insertContact(contact: ContactEntity, fallbackLimit: number): Promise<void> {
    const { workspaceId, id } = contact;
    if (!this.keys.workspaces.has(workspaceId))
      throw new ChunkStateIncompleteError(`usage of ${workspaceId}`);
    const limit = this.limits.get(workspaceId) ?? fallbackLimit;
    const stored = this.usage.get(workspaceId) ?? 0;
    if (stored >= limit) throw ContactsException.contactLimit(limit);
    if (!this.keys.contactIds.has(id)) throw new ChunkStateIncompleteError(`contact id ${id}`);
    if (this.contacts.has(id)) throw ContactsException.idInUse('Contact', id);
    const hadUsage = this.usage.has(workspaceId);
    const counted = this.counted.get(workspaceId) ?? 0;
    this.usage.set(workspaceId, stored + 1);
    this.counted.set(workspaceId, counted + 1);
    this.put(contact);
    this.created.add(id);
    this.undo.push(() => {
      if (hadUsage) this.usage.set(workspaceId, stored);
      else this.usage.delete(workspaceId);
      this.counted.set(workspaceId, counted);
      this.contacts.delete(id);
      this.emailLower.delete(id);
      this.created.delete(id);
    });
    return Promise.resolve();
  }

  updateContact(contact: ContactEntity): Promise<void> {
    const { id } = contact;
    const before = this.contacts.get(id);
    if (!before) throw new ChunkStateIncompleteError(`contact ${id}`);
    const lowerBefore = this.emailLower.get(id) ?? null;
    const wasUpdated = this.updated.has(id);
    this.put(contact);
    if (!this.created.has(id)) this.updated.add(id);
    this.undo.push(() => {
      this.contacts.set(id, before);
      this.emailLower.set(id, lowerBefore);
      if (!wasUpdated) this.updated.delete(id);
    });
    return Promise.resolve();
  }

  private put(contact: ContactEntity): void {
    const stored = storedContact(contact);
    this.contacts.set(stored.id, stored);
    this.emailLower.set(stored.id, this.lowerOf(stored.email));
    this.index(stored);
  }

  view(contact: ContactEntity): Promise<ContactView> {
    const view = this.views.get(contact.id);
    if (!view && !this.created.has(contact.id)) throw new ChunkStateIncompleteError(`view of ${contact.id}`);
    return Promise.resolve({ contact, tags: view?.tags ?? [], channels: view?.channels ?? [] });
  }

  recordConsentChanges(rows: ConsentChangeEntity[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    const length = this.consentChanges.length;
    this.consentChanges.push(...rows.map((row) => ({ ...row })));
    this.undo.push(() => {
      this.consentChanges.length = length;
    });
    return Promise.resolve();
  }

  eventByIdempotencyKey(workspaceId: number, key: string): Promise<EventEntity | null> {
    const id = keyOf(workspaceId, key);
    this.need(this.keys.idempotencyKeys, id, `idempotency key ${key}`);
    const event = this.eventsByKey.get(id);
    return Promise.resolve(event ? copyEvent(event) : null);
  }

  eventIdTaken(id: number): Promise<boolean> {
    if (!this.keys.eventIds.has(id)) throw new ChunkStateIncompleteError(`event id ${id}`);
    return Promise.resolve(this.eventIds.has(id));
  }

  insertEvent(event: EventEntity): Promise<void> {
    const stored: EventEntity = {
      ...event,
      data: asStored(event.data),
      occurredAt: new Date(event.occurredAt.getTime()),
      receivedAt: new Date(event.receivedAt.getTime()),
    };
    const key = stored.idempotencyKey === null ? undefined : keyOf(stored.workspaceId, stored.idempotencyKey);
    const length = this.newEvents.length;
    const hadId = this.eventIds.has(stored.id);
    const keyBefore = key === undefined ? undefined : this.eventsByKey.get(key);
    this.newEvents.push(stored);
    this.eventIds.add(stored.id);
    if (key !== undefined) this.eventsByKey.set(key, stored);
    this.undo.push(() => {
      this.newEvents.length = length;
      if (!hadId) this.eventIds.delete(stored.id);
      if (key === undefined) return;
      if (keyBefore) this.eventsByKey.set(key, keyBefore);
      else this.eventsByKey.delete(key);
    });
    return Promise.resolve();
  }

  claimImportChunk(chunk: ImportChunkEntity): Promise<boolean> {
    const key = importChunkKey(chunk.workspaceId, chunk.jobId, chunk.chunk);
    this.need(this.keys.importChunks, key, `import chunk ${key}`);
    if (this.decidedImportChunks.has(key)) return Promise.resolve(false);
    const length = this.newImportChunks.length;
    this.decidedImportChunks.add(key);
    this.newImportChunks.push({ ...chunk, decidedAt: new Date(chunk.decidedAt.getTime()) });
    this.undo.push(() => {
      this.decidedImportChunks.delete(key);
      this.newImportChunks.length = length;
    });
    return Promise.resolve(true);
  }

  /** Writes what the decided records changed: one statement per table. */
  async flush(manager: EntityManager): Promise<void> {
    // Updates first: an identifier an existing contact gave up may be what a new contact holds.
    const updated = [...this.updated].map((id) => contactJson(this.contacts.get(id)!));
    // The unique indexes are checked row by row as one statement updates them, so an identifier that
    // moved between two updated contacts could meet its old holder half way. Clearing the identifiers
    // of every contact whose identifiers changed first leaves each row, at any point of the update,
    // with its final values or none, and the final values are unique.
    const moved = [...this.updated].filter(
      (id) => identityOf(this.contacts.get(id)!) !== this.storedIdentity.get(id),
    );
    if (moved.length > 0) {
      await manager.query(
        'UPDATE contacts SET phone = NULL, external_id = NULL, email = NULL WHERE id = ANY($1::bigint[])',
        [moved],
      );
    }
    if (updated.length > 0) {
      await manager.query(
        `UPDATE contacts c SET workspace_id = r.workspace_id, name = r.name, phone = r.phone, email = r.email,
           external_id = r.external_id, source = r.source, data = r.data, marketing_consent = r.marketing_consent,
           value_times = r.value_times, created_at = r.created_at, updated_at = r.updated_at
         FROM jsonb_populate_recordset(NULL::contacts, $1::jsonb) AS r WHERE c.id = r.id`,
        [JSON.stringify(updated)],
      );
    }
    const created = [...this.created].map((id) => contactJson(this.contacts.get(id)!));
    if (created.length > 0) {
      await manager.query(
        `INSERT INTO contacts (${CONTACT_COLUMNS})
         SELECT ${CONTACT_COLUMNS} FROM jsonb_populate_recordset(NULL::contacts, $1::jsonb)`,
        [JSON.stringify(created)],
      );
    }
    const counted = [...this.counted].filter(([, count]) => count > 0);
    if (counted.length > 0) {
      await manager.query(
        `INSERT INTO workspace_usage (workspace_id, contacts)
         SELECT * FROM unnest($1::bigint[], $2::integer[])
         ON CONFLICT (workspace_id) DO UPDATE SET contacts = workspace_usage.contacts + EXCLUDED.contacts`,
        [counted.map(([workspaceId]) => workspaceId), counted.map(([, count]) => count)],
      );
    }
    if (this.consentChanges.length > 0) {
      await manager.query(
        `INSERT INTO consent_changes (${CONSENT_COLUMNS})
         SELECT ${CONSENT_COLUMNS} FROM jsonb_populate_recordset(NULL::consent_changes, $1::jsonb)`,
        [
          JSON.stringify(
            this.consentChanges.map((row) => ({
              id: row.id,
              workspace_id: row.workspaceId,
              contact_id: row.contactId,
              channel: row.channel,
              granted: row.granted,
              previous: row.previous,
              source: row.source,
              occurred_at: row.occurredAt.toISOString(),
              recorded_at: row.recordedAt.toISOString(),
            })),
          ),
        ],
      );
    }
    if (this.newImportChunks.length > 0) {
      const chunks = this.newImportChunks;
      await manager.query(
        `INSERT INTO import_chunks (workspace_id, job_id, chunk, rows, decided_at)
         SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::integer[], $4::integer[], $5::timestamptz[])`,
        [
          chunks.map((chunk) => chunk.workspaceId),
          chunks.map((chunk) => chunk.jobId),
          chunks.map((chunk) => chunk.chunk),
          chunks.map((chunk) => chunk.rows),
          chunks.map((chunk) => chunk.decidedAt.toISOString()),
        ],
      );
    }
    if (this.newEvents.length > 0) {
      await manager.query(
        `INSERT INTO events (${EVENT_COLUMNS})
         SELECT ${EVENT_COLUMNS} FROM jsonb_populate_recordset(NULL::events, $1::jsonb)`,
        [
          JSON.stringify(
            this.newEvents.map((event) => ({
              id: event.id,
              workspace_id: event.workspaceId,
              name: event.name,
              contact_id: event.contactId,
              data: event.data,
              occurred_at: event.occurredAt.toISOString(),
              received_at: event.receivedAt.toISOString(),
              idempotency_key: event.idempotencyKey,
            })),
          ),
        ],
      );
    }
  }
}

function identityOf(contact: ContactEntity): string {
  return JSON.stringify([contact.phone, contact.externalId, contact.email]);
}

function contactJson(contact: ContactEntity): Record<string, unknown> {
  return {
    id: contact.id,
    workspace_id: contact.workspaceId,
    name: contact.name,
    phone: contact.phone,
    email: contact.email,
    external_id: contact.externalId,
    source: contact.source,
    data: contact.data,
    marketing_consent: contact.marketingConsent,
    value_times: contact.valueTimes,
    created_at: contact.createdAt.toISOString(),
    updated_at: contact.updatedAt.toISOString(),
  };
}
