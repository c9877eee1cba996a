import { randomBytes } from 'node:crypto';

import {
  CONTACT_FACT_TYPES,
  createEnvelope,
  encryptSecret,
  type Envelope,
  type TopicKey,
} from '@cms/contracts';
import type { RunningService } from '@cms/service-kit';
import { ServiceHarness, type OutcomeEnvelope } from '@cms/service-kit/testing';
import { eventually } from '@cms/testing';

import type { MessagingConfig } from '../../src/config';
import { MESSAGING_SERVICE } from '../../src/messaging.service';

export type Outcome = OutcomeEnvelope;

/** What a contact snapshot may set; the rest takes the values of a contact nobody edited. */
export interface ContactInput {
  id: number;
  name?: string | null;
  phone?: string | null;
  email?: string | null;
  external_id?: string | null;
  data?: Record<string, unknown>;
  marketing_consent?: Record<string, boolean | null>;
  channels?: Record<string, string | null>;
  updated_at?: string;
}

const NO_CONSENT = {
  whatsapp: null,
  sms: null,
  email: null,
  rcs: null,
  telegram: null,
  messenger: null,
  instagram: null,
  browser_push: null,
};
const NO_CHANNELS = { telegram: null, messenger: null, instagram: null, browser_push: null };

/**
 * The messaging service of one suite (the kit's ServiceHarness), and its peers played by the test: the
 * gateway producing request records, the contacts service publishing contact facts.
 */
export class MessagingHarness {
  private lastWorkspace = 0;
  private lastId = 0;

  private constructor(
    readonly kit: ServiceHarness<MessagingConfig>,
    readonly service: RunningService,
    readonly secretsKey: string,
  ) {}

  /** `read`: the topics kept to wait on besides the service's facts (the requests it appends). */
  static async start(env: Record<string, string> = {}, read: TopicKey[] = []): Promise<MessagingHarness> {
    const secretsKey = randomBytes(32).toString('base64');
    const kit = await ServiceHarness.start({
      definition: MESSAGING_SERVICE,
      prefix: 'msg',
      read: ['messaging', ...read],
      env: { SECRETS_KEY: secretsKey, PUBLIC_BASE_URL: 'https://api.example.test', ...env },
    });
    const service = await kit.startService();
    return new MessagingHarness(kit, service, secretsKey);
  }

  stop(): Promise<void> {
    return this.kit.stop();
  }

  /** A workspace of its own for each test. */
  workspace(): number {
    this.lastWorkspace += 1;
    return this.lastWorkspace;
  }

  /** An id as the gateway mints them: unique across the suite's workspaces. */
  id(): number {
    this.lastId += 1;
    return 1000 + this.lastId;
  }

  /** Produces a request record as the gateway does and waits for its outcome. */
  request(workspaceId: number, type: string, data: object, time?: string): Promise<Outcome> {
    return this.kit.request(type, workspaceId, data, {
      timeoutMs: 30_000,
      ...(time !== undefined ? { time } : {}),
    });
  }

  /** Credentials as the gateway puts them on the log: their JSON, sealed. */
  seal(credentials: Record<string, unknown>): string {
    return encryptSecret(JSON.stringify(credentials), this.secretsKey);
  }

  /** The facts the service published for a request. */
  async factsOf(outcome: Outcome, count = 1): Promise<Envelope<Record<string, unknown>>[]> {
    return this.kit.waitFor(`the facts of ${outcome.causationid}`, () => {
      const facts = this.kit
        .recordsOn(this.kit.topics.messaging)
        .filter((record) => record.causationid === outcome.causationid);
      return facts.length >= count ? facts : undefined;
    });
  }

  /** contact.created / contact.updated as the contacts service publishes them: the whole contact. */
  snapshot(workspaceId: number, contact: ContactInput, type: string = CONTACT_FACT_TYPES.created): Envelope {
    const at = contact.updated_at ?? new Date().toISOString();
    return createEnvelope({
      type,
      source: 'contacts',
      workspaceid: String(workspaceId),
      subject: String(contact.id),
      time: at,
      data: {
        contact_id: contact.id,
        name: contact.name ?? null,
        phone: contact.phone ?? null,
        email: contact.email ?? null,
        external_id: contact.external_id ?? null,
        source: 'api',
        data: contact.data ?? {},
        marketing_consent: { ...NO_CONSENT, ...contact.marketing_consent },
        tag_ids: [],
        channels: { ...NO_CHANNELS, ...contact.channels },
        created_at: at,
        updated_at: at,
      },
    });
  }

  /** contact.channel-linked or contact.channel-unlinked. */
  channelLink(
    workspaceId: number,
    link: { contact_id: number; channel: string; external_id: string; moved_to_contact_id?: number },
  ): Envelope {
    const at = new Date().toISOString();
    const unlinked = link.moved_to_contact_id !== undefined;
    return createEnvelope({
      type: unlinked ? CONTACT_FACT_TYPES.channelUnlinked : CONTACT_FACT_TYPES.channelLinked,
      source: 'contacts',
      workspaceid: String(workspaceId),
      subject: String(link.contact_id),
      time: at,
      data: { ...link, at },
    });
  }

  publishContactFacts(facts: Envelope[]): Promise<void> {
    return this.kit.publish(this.kit.topics.contacts, facts);
  }

  /** Publishes contact.created for each contact and waits until the view has them all. */
  async contacts(workspaceId: number, ...contacts: ContactInput[]): Promise<void> {
    await this.publishContactFacts(contacts.map((contact) => this.snapshot(workspaceId, contact)));
    await this.untilContacts(
      contacts.map((contact) => contact.id),
      'in the view',
    );
  }

  /** Waits until the view's rows of `ids` satisfy `check` (by default: they all exist). */
  async untilContacts(
    ids: number[],
    what: string,
    check: (rows: Array<Record<string, unknown>>) => boolean = (rows) => rows.length === ids.length,
  ): Promise<Array<Record<string, unknown>>> {
    return eventually(`contacts ${ids.join(', ')} ${what}`, async () => {
      const rows: Array<Record<string, unknown>> = await this.kit.db.query(
        'SELECT * FROM contacts WHERE id = ANY($1) ORDER BY id',
        [ids],
      );
      return check(rows) ? rows : undefined;
    });
  }

  /** A call of the internal API, as the gateway makes it. */
  async call<T = unknown>(
    method: 'GET' | 'POST',
    path: string,
    workspaceId: number,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const response = await fetch(`${this.service.url}/internal/v1/${path}`, {
      method,
      headers: {
        'x-workspace-id': String(workspaceId),
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  get<T = unknown>(path: string, workspaceId: number): Promise<{ status: number; body: T }> {
    return this.call<T>('GET', path, workspaceId);
  }
}
