import {
  CONTACT_FACT_TYPES,
  CONTACT_REQUEST_TYPES,
  createEnvelope,
  EVENT_REQUEST_TYPES,
  type DecodedRecord,
  type Envelope,
} from '@cms/contracts';
import { RequestRefusedError, type Answer } from '@cms/kafka';
import type { EntityManager } from 'typeorm';

import { ContactsDecision } from '../decisions/decision';
import type { EventEntity } from '../events/event.entity';
import { RecordEventHandler } from '../events/record-event/record-event.handler';
import { BatchUpsertContactsHandler } from './batch-upsert-contacts/batch-upsert-contacts.handler';
import { EMPTY_CONTACT, mergeContact } from './contact-changes';
import { ContactEntity } from './contact.entity';
import { claimedIdentifiers, releaseIdentifiers } from './contact-identity';
import type { ContactView } from './contact.repository';
import type { ContactStore } from './contact-store';
import type { ImportChunkEntity } from './import-chunk.entity';
import { ContactWriter } from './contact-writer';
import { UpdateContactHandler } from './update-contact/update-contact.handler';
import { UpsertContactHandler } from './upsert-contact/upsert-contact.handler';

const T1 = '2026-01-01T10:00:00.000Z';
const T2 = '2026-01-01T11:00:00.000Z';
const T3 = '2026-01-01T12:00:00.000Z';

describe('claimedIdentifiers', () => {
  it('names the identifiers a write gave the contact, and none it kept or cleared', () => {
    const before = mergeContact(EMPTY_CONTACT, { phone: '+1', email: 'a@x.org', external_id: 'e-1' }, T1);
    const after = mergeContact(before.values, { phone: '+1', email: 'b@x.org', external_id: null }, T2);
    expect(claimedIdentifiers(before.values, after.values)).toEqual([{ field: 'email', value: 'b@x.org' }]);
  });

  it('names nothing when an older write lost to newer values', () => {
    const newer = mergeContact(EMPTY_CONTACT, { email: 'new@x.org' }, T3).values;
    const older = mergeContact(newer, { email: 'old@x.org', external_id: 'e-1' }, T1).values;
    expect(claimedIdentifiers(newer, older)).toEqual([{ field: 'external_id', value: 'e-1' }]);
  });
});

describe('releaseIdentifiers', () => {
  it('clears the fields the contact held, whatever their times, and moves each time up to the write', () => {
    const held = mergeContact(EMPTY_CONTACT, { email: 'a@x.org' }, T3).values;
    const withId = mergeContact(held, { external_id: 'e-1' }, T1).values;
    const released = releaseIdentifiers(withId, ['phone', 'external_id', 'email'], T2);
    expect(released.changed).toEqual(['email', 'external_id']);
    expect(released.values).toMatchObject({ phone: null, external_id: null, email: null });
    // The email was written after the move's time: its time stays, so neither value can come back older.
    expect(released.values.value_times).toMatchObject({ external_id: T2, email: T3 });
    expect(released.values.value_times.phone).toBeUndefined();
  });
});

/**
 * ContactStore in memory, holding each identifier once as the database's unique indexes do: a write
 * that would give a second contact the same phone, external id or email (emails whatever their case)
 * fails as the database would.
 */
class MemoryContactStore implements ContactStore {
  readonly contacts = new Map<number, ContactEntity>();
  readonly events: EventEntity[] = [];
  readonly importChunks = new Set<string>();
  usage = 0;

  private find(workspaceId: number, matches: (contact: ContactEntity) => boolean): ContactEntity | null {
    const found = [...this.contacts.values()].find(
      (contact) => contact.workspaceId === workspaceId && matches(contact),
    );
    return found ? Object.assign(new ContactEntity(), found) : null;
  }

  private store(contact: ContactEntity): void {
    for (const other of this.contacts.values()) {
      if (other.id === contact.id || other.workspaceId !== contact.workspaceId) continue;
      const same = (a: string | null, b: string | null) => a !== null && a === b;
      if (
        same(other.phone, contact.phone) ||
        same(other.externalId, contact.externalId) ||
        same(other.email?.toLowerCase() ?? null, contact.email?.toLowerCase() ?? null)
      ) {
        throw new Error(`duplicate key: contacts ${other.id} and ${contact.id} would share an identifier`);
      }
    }
    this.contacts.set(contact.id, Object.assign(new ContactEntity(), contact));
  }

  contact(workspaceId: number, id: number): Promise<ContactEntity | null> {
    return Promise.resolve(this.find(workspaceId, (contact) => contact.id === id));
  }

  contactByPhone(workspaceId: number, phone: string): Promise<ContactEntity | null> {
    return Promise.resolve(this.find(workspaceId, (contact) => contact.phone === phone));
  }

  contactByExternalId(workspaceId: number, externalId: string): Promise<ContactEntity | null> {
    return Promise.resolve(this.find(workspaceId, (contact) => contact.externalId === externalId));
  }

  contactByEmail(workspaceId: number, email: string): Promise<ContactEntity | null> {
    return Promise.resolve(
      this.find(workspaceId, (contact) => contact.email?.toLowerCase() === email.toLowerCase()),
    );
  }

  insertContact(contact: ContactEntity): Promise<void> {
    this.store(contact);
    this.usage += 1;
    return Promise.resolve();
  }

  updateContact(contact: ContactEntity): Promise<void> {
    this.store(contact);
    return Promise.resolve();
  }

  view(contact: ContactEntity): Promise<ContactView> {
    return Promise.resolve({ contact, tags: [], channels: [] });
  }

  recordConsentChanges(): Promise<void> {
    return Promise.resolve();
  }

  eventByIdempotencyKey(): Promise<EventEntity | null> {
    return Promise.resolve(null);
  }

  eventIdTaken(id: number): Promise<boolean> {
    return Promise.resolve(this.events.some((event) => event.id === id));
  }

  insertEvent(event: EventEntity): Promise<void> {
    this.events.push(event);
    return Promise.resolve();
  }

  claimImportChunk(chunk: ImportChunkEntity): Promise<boolean> {
    const key = `${chunk.workspaceId}/${chunk.jobId}/${chunk.chunk}`;
    if (this.importChunks.has(key)) return Promise.resolve(false);
    this.importChunks.add(key);
    return Promise.resolve(true);
  }
}

const WORKSPACE = 7;
let nextId = 100;

function sut() {
  const store = new MemoryContactStore();
  const writer = new ContactWriter();
  const upsert = new UpsertContactHandler(writer);
  const handlers = new Map<string, (decision: ContactsDecision<never>) => Promise<Answer>>([
    [EVENT_REQUEST_TYPES.record, (decision) => new RecordEventHandler(writer).handle(decision)],
    [CONTACT_REQUEST_TYPES.upsert, (decision) => upsert.handle(decision)],
    [
      CONTACT_REQUEST_TYPES.batchUpsert,
      (decision) => new BatchUpsertContactsHandler(upsert).handle(decision),
    ],
    [CONTACT_REQUEST_TYPES.update, (decision) => new UpdateContactHandler(writer).handle(decision)],
  ]);
  // Batch elements run in a savepoint: here, simply in line (these tests refuse no element).
  const manager = { transaction: <T>(work: () => Promise<T>) => work() } as unknown as EntityManager;
  /** Decides one request as of `time`: its answer (or refusal) and the facts it published. */
  const decide = async (type: string, data: object, time: string) => {
    const record = createEnvelope({
      type,
      source: 'gateway',
      workspaceid: String(WORKSPACE),
      time,
      data,
    }) as DecodedRecord<never>;
    const decision = new ContactsDecision(record, manager, store);
    const answer = await handlers.get(type)!(decision).catch((error: unknown) => {
      if (error instanceof RequestRefusedError) return error;
      throw error;
    });
    return { answer, facts: [...decision.publishedFacts] as Envelope<Record<string, unknown>>[] };
  };
  const upsertAt = async (body: object, time: string): Promise<number> => {
    const { answer } = await decide(
      CONTACT_REQUEST_TYPES.upsert,
      { contact_id: (nextId += 1), contact_limit: 100, ...body },
      time,
    );
    return (answer as Answer).resource!.id as number;
  };
  const event = (contact: object, time: string, occurredAt?: string) =>
    decide(
      EVENT_REQUEST_TYPES.record,
      {
        name: 'order.paid',
        event_id: (nextId += 1),
        contact_id: (nextId += 1),
        contact_limit: 100,
        contact,
        ...(occurredAt !== undefined ? { occurred_at: occurredAt } : {}),
      },
      time,
    );
  return { store, decide, upsertAt, event };
}

describe('identity: one holder per phone, external id and email in a workspace', () => {
  it('moves the email and external id an event names from their holder to the contact its phone matched', async () => {
    const { store, upsertAt, event } = sut();
    const a = await upsertAt({ name: 'A', phone: '+14155550101' }, T1);
    const b = await upsertAt({ name: 'B', email: 'ada@example.com', external_id: 'crm-1' }, T1);

    const { answer, facts } = await event(
      { phone: '+14155550101', email: 'ADA@example.com', external_id: 'crm-1' },
      T2,
    );

    expect((answer as Answer).resource).toMatchObject({ contact_id: a });
    expect(store.contacts.get(a)).toMatchObject({
      phone: '+14155550101',
      email: 'ADA@example.com',
      externalId: 'crm-1',
      updatedAt: new Date(T2),
    });
    expect(store.contacts.get(b)).toMatchObject({ email: null, externalId: null, updatedAt: new Date(T2) });
    const updates = facts.filter((fact) => fact.type === CONTACT_FACT_TYPES.updated);
    expect(updates.map((fact) => [fact.subject, fact.data.changed_fields])).toEqual([
      [String(b), ['email', 'external_id']],
      [String(a), ['email', 'external_id']],
    ]);
    expect(updates[0]!.data).toMatchObject({ contact_id: b, email: null, external_id: null, updated_at: T2 });
  });

  it('leaves the holder its email when the event is older than the matched contact’s own email', async () => {
    const { store, upsertAt, event } = sut();
    const a = await upsertAt({ name: 'A', phone: '+14155550101', email: 'a@example.com' }, T3);
    const b = await upsertAt({ name: 'B', email: 'b@example.com' }, T1);

    const { facts } = await event({ phone: '+14155550101', email: 'b@example.com' }, T3, T2);

    expect(store.contacts.get(a)?.email).toBe('a@example.com');
    expect(store.contacts.get(b)?.email).toBe('b@example.com');
    expect(facts.filter((fact) => fact.type === CONTACT_FACT_TYPES.updated)).toEqual([]);
  });

  it('matches an upsert by email when neither phone nor external id matches, instead of creating', async () => {
    const { store, decide, upsertAt } = sut();
    const a = await upsertAt({ name: 'A', email: 'ada@example.com' }, T1);

    const { answer } = await decide(
      CONTACT_REQUEST_TYPES.upsert,
      { contact_id: 999, contact_limit: 100, name: 'Ada', email: 'Ada@Example.com', phone: '+14155550102' },
      T2,
    );

    expect((answer as Answer).status).toBe(200);
    expect((answer as Answer).resource).toMatchObject({ id: a, phone: '+14155550102' });
    expect(store.contacts.size).toBe(1);
  });

  it('moves an identifier between two contacts of the same batch, in element order', async () => {
    const { store, decide, upsertAt } = sut();
    const b = await upsertAt({ name: 'B', phone: '+14155550102' }, T1);

    const { answer, facts } = await decide(
      CONTACT_REQUEST_TYPES.batchUpsert,
      {
        contact_limit: 100,
        contacts: [
          { contact_id: 501, name: 'A', phone: '+14155550101', external_id: 'crm-1' },
          { contact_id: 502, name: 'B', phone: '+14155550102', external_id: 'crm-1' },
        ],
      },
      T2,
    );

    const results = (answer as Answer).resource!.results as Array<{ status: number }>;
    expect(results.map((result) => result.status)).toEqual([201, 200]);
    expect(store.contacts.get(501)).toMatchObject({ externalId: null, updatedAt: new Date(T2) });
    expect(store.contacts.get(b)).toMatchObject({ externalId: 'crm-1', updatedAt: new Date(T2) });
    expect(facts.map((fact) => [fact.type, fact.subject])).toEqual([
      [CONTACT_FACT_TYPES.created, '501'],
      [CONTACT_FACT_TYPES.updated, '501'],
      [CONTACT_FACT_TYPES.updated, String(b)],
    ]);
  });

  it('refuses a PUT of identifiers another contact holds, with a pointer to each, and changes nothing', async () => {
    const { store, decide, upsertAt } = sut();
    const a = await upsertAt({ name: 'A', phone: '+14155550101' }, T1);
    const b = await upsertAt({ name: 'B', email: 'b@example.com', external_id: 'crm-b' }, T1);

    const { answer, facts } = await decide(
      CONTACT_REQUEST_TYPES.update,
      { contact_id: a, email: 'B@example.com', external_id: 'crm-b', name: 'Changed' },
      T2,
    );

    expect(answer).toBeInstanceOf(RequestRefusedError);
    expect((answer as RequestRefusedError).toErrors()).toEqual([
      expect.objectContaining({ status: '422', source: { pointer: '/data/attributes/external_id' } }),
      expect.objectContaining({ status: '422', source: { pointer: '/data/attributes/email' } }),
    ]);
    expect(facts).toEqual([]);
    expect(store.contacts.get(a)).toMatchObject({ name: 'A', email: null, externalId: null });
    expect(store.contacts.get(b)).toMatchObject({ email: 'b@example.com', externalId: 'crm-b' });
  });
});
