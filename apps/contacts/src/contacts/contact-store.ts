import type { UndoScope } from '@cms/kafka';
import type { EntityManager } from 'typeorm';

import { ContactsException } from '../decisions/contacts.exception';
import type { EventEntity } from '../events/event.entity';
import { EventRepository } from '../events/event.repository';
import type { ConsentChangeEntity } from './consent-change.entity';
import type { ContactEntity } from './contact.entity';
import { ContactRepository, type ContactView } from './contact.repository';
import type { ImportChunkEntity } from './import-chunk.entity';

/**
 * What deciding a contact or event request reads and writes. The rules (the handlers, ContactWriter)
 * only see this, so the same rules run against Postgres one record at a time (SqlContactStore) and
 * against the state a whole chunk of records was loaded into (ChunkContactStore).
 */
export interface ContactStore {
  contact(workspaceId: number, id: number): Promise<ContactEntity | null>;
  contactByPhone(workspaceId: number, phone: string): Promise<ContactEntity | null>;
  /** The one contact of the workspace with the external id (unique, like the phone). */
  contactByExternalId(workspaceId: number, externalId: string): Promise<ContactEntity | null>;
  /** Emails match whatever their case (Postgres' `lower`); one contact holds each. */
  contactByEmail(workspaceId: number, email: string): Promise<ContactEntity | null>;
  /**
   * Stores a new contact and counts it against the workspace's plan: refused when the workspace already
   * stores as many contacts as the limit of its latest plan record allows (`fallbackLimit`, the
   * request's own, for a workspace whose plan records carry none), then when the id is taken in any
   * workspace.
   */
  insertContact(contact: ContactEntity, fallbackLimit: number): Promise<void>;
  /** Writes every value of a stored contact. */
  updateContact(contact: ContactEntity): Promise<void>;
  /** A stored contact with its tags and channel links. */
  view(contact: ContactEntity): Promise<ContactView>;
  recordConsentChanges(rows: ConsentChangeEntity[]): Promise<void>;
  eventByIdempotencyKey(workspaceId: number, key: string): Promise<EventEntity | null>;
  /** Whether the id is taken in any workspace. */
  eventIdTaken(id: number): Promise<boolean>;
  insertEvent(event: EventEntity): Promise<void>;
  /**
   * Records that a chunk of an import job is being decided: false, writing nothing, when the workspace's
   * chunk was decided before.
   */
  claimImportChunk(chunk: ImportChunkEntity): Promise<boolean>;
  /**
   * How a part of a decision that may be refused is undone (ContactsDecision.attempt, also for each
   * element of a batch): a savepoint when the store writes statements (undefined), the store's own
   * undo log when it holds the writes in memory.
   */
  readonly undoScope?: UndoScope;
}

const CONTACT_COLUMNS =
  'id, workspace_id, name, phone, email, external_id, source, data, marketing_consent, value_times, created_at, updated_at';

function contactParams(contact: ContactEntity): unknown[] {
  return [
    contact.id,
    contact.workspaceId,
    contact.name,
    contact.phone,
    contact.email,
    contact.externalId,
    contact.source,
    JSON.stringify(contact.data),
    JSON.stringify(contact.marketingConsent),
    JSON.stringify(contact.valueTimes),
    contact.createdAt,
    contact.updatedAt,
  ];
}

/**
 * The store of a record decided on its own, inside the consumer's transaction: every read and write is
 * a statement, and a refused record is undone by the decision's savepoint.
 */
export class SqlContactStore implements ContactStore {
  private readonly contacts: ContactRepository;
  private readonly events: EventRepository;

  constructor(private readonly manager: EntityManager) {
    this.contacts = new ContactRepository(manager);
    this.events = new EventRepository(manager);
  }

  contact(workspaceId: number, id: number): Promise<ContactEntity | null> {
    return this.contacts.findOne(workspaceId, id);
  }

  contactByPhone(workspaceId: number, phone: string): Promise<ContactEntity | null> {
    return this.contacts.findByPhone(workspaceId, phone);
  }

  contactByExternalId(workspaceId: number, externalId: string): Promise<ContactEntity | null> {
    return this.contacts.findByExternalId(workspaceId, externalId);
  }

  contactByEmail(workspaceId: number, email: string): Promise<ContactEntity | null> {
    return this.contacts.findByEmail(workspaceId, email);
  }

  async insertContact(contact: ContactEntity, fallbackLimit: number): Promise<void> {
    // The plan check and the count in one statement: no row back means the workspace is at its limit.
    // The limit is the latest plan record's, kept in the row; the request's own without one.
    const counted: unknown[] = await this.manager.query(
      `INSERT INTO workspace_usage (workspace_id, contacts) SELECT $1, 1
       WHERE COALESCE((SELECT contact_limit FROM workspace_usage WHERE workspace_id = $1), $2::integer) > 0
       ON CONFLICT (workspace_id) DO UPDATE SET contacts = workspace_usage.contacts + 1
       WHERE workspace_usage.contacts < COALESCE(workspace_usage.contact_limit, $2::integer)
       RETURNING contacts`,
      [contact.workspaceId, fallbackLimit],
    );
    if (counted.length === 0) {
      const [plan]: Array<{ contact_limit: number | null }> = await this.manager.query(
        'SELECT contact_limit FROM workspace_usage WHERE workspace_id = $1',
        [contact.workspaceId],
      );
      throw ContactsException.contactLimit(plan?.contact_limit ?? fallbackLimit);
    }
    // A taken id inserts nothing; the decision's savepoint then undoes the count above.
    const inserted: unknown[] = await this.manager.query(
      `INSERT INTO contacts (${CONTACT_COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      contactParams(contact),
    );
    if (inserted.length === 0) throw ContactsException.idInUse('Contact', contact.id);
  }

  async updateContact(contact: ContactEntity): Promise<void> {
    await this.manager.query(
      `UPDATE contacts SET workspace_id = $2, name = $3, phone = $4, email = $5, external_id = $6,
         source = $7, data = $8, marketing_consent = $9, value_times = $10, created_at = $11, updated_at = $12
       WHERE id = $1`,
      contactParams(contact),
    );
  }

  view(contact: ContactEntity): Promise<ContactView> {
    return this.contacts.view(contact);
  }

  recordConsentChanges(rows: ConsentChangeEntity[]): Promise<void> {
    return this.contacts.recordConsentChanges(rows);
  }

  eventByIdempotencyKey(workspaceId: number, key: string): Promise<EventEntity | null> {
    return this.events.findByIdempotencyKey(workspaceId, key);
  }

  eventIdTaken(id: number): Promise<boolean> {
    return this.events.idTaken(id);
  }

  insertEvent(event: EventEntity): Promise<void> {
    return this.events.insert(event);
  }

  async claimImportChunk(chunk: ImportChunkEntity): Promise<boolean> {
    const claimed: unknown[] = await this.manager.query(
      `INSERT INTO import_chunks (workspace_id, job_id, chunk, rows, decided_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING chunk`,
      [chunk.workspaceId, chunk.jobId, chunk.chunk, chunk.rows, chunk.decidedAt],
    );
    return claimed.length > 0;
  }
}
