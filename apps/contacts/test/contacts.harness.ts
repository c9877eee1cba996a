import {
  CONTACT_REQUEST_TYPES,
  OUTCOME_TYPES,
  type Envelope,
  type TopicKey,
  type Topics,
} from '@cms/contracts';
import type { RunningService } from '@cms/service-kit';
import { ServiceHarness, type OutcomeEnvelope, type ServiceProcess } from '@cms/service-kit/testing';
import type { TestStack } from '@cms/testing';
import type { Admin } from 'kafkajs';
import { DataSource } from 'typeorm';

import type { ContactsConfig } from '../src/config';
import { CONTACTS_SERVICE } from '../src/contacts.service';

export interface OutcomeError {
  status: string;
  title: string;
  detail: string;
  source?: { pointer: string };
}

/** What the gateway would answer: the status and the body. */
export interface Outcome {
  type: string;
  status: number;
  resource?: Record<string, unknown>;
  errors?: OutcomeError[];
  envelope: Envelope;
}

export interface Reply {
  status: number;
  body: Record<string, unknown> & {
    data?: unknown;
    meta?: Record<string, number>;
    errors?: OutcomeError[];
  };
}

export interface RequestOptions {
  /** The time the gateway received the request; now by default. */
  time?: string;
}

function answerOf(envelope: OutcomeEnvelope): Outcome {
  const data = envelope.data as {
    status: number;
    resource?: Record<string, unknown>;
    errors?: OutcomeError[];
  };
  return {
    type: envelope.type === OUTCOME_TYPES.accepted ? 'accepted' : 'rejected',
    status: data.status,
    ...(data.resource !== undefined ? { resource: data.resource } : {}),
    ...(data.errors !== undefined ? { errors: data.errors } : {}),
    envelope,
  };
}

/**
 * Plays the gateway against a contacts service of its own (the kit's ServiceHarness): produces
 * request records exactly as the gateway does and reads what a peer sees, the outcomes, the facts on
 * cms.contacts.v1 and the internal read API.
 */
export class ContactsHarness {
  private readonly instances: RunningService[] = [];
  /** The service as a process of its own, when `start` was asked for one. */
  private process: ServiceProcess | undefined;
  private nextId = 1;
  private nextWorkspace = 1000;

  private constructor(private readonly kit: ServiceHarness<ContactsConfig>) {}

  /**
   * `read`: topics kept to wait on besides the facts (the requests the service appends). `asProcess`:
   * the service runs as a process of its own, as a deployment runs it (`main.ts start`), rather than in
   * the test's (whose module sandbox slows class-transformer down tenfold): for figures of speed.
   */
  static async start(read: TopicKey[] = [], options: { asProcess?: boolean } = {}): Promise<ContactsHarness> {
    const kit = await ServiceHarness.start({
      definition: CONTACTS_SERVICE,
      prefix: 'ct',
      layout: { requestPartitions: 3, factPartitions: 3, outcomePartitions: 2 },
      read: ['contacts', ...read],
    });
    const harness = new ContactsHarness(kit);
    if (options.asProcess) harness.process = await kit.spawnService();
    else await harness.startService();
    return harness;
  }

  get stack(): TestStack {
    return this.kit.stack;
  }

  get topics(): Topics {
    return this.kit.topics;
  }

  get admin(): Admin {
    return this.kit.admin;
  }

  /** The facts on cms.contacts.v1, oldest first. */
  get facts(): Envelope<Record<string, unknown>>[] {
    return this.kit.recordsOn(this.topics.contacts);
  }

  /** The records on cms.requests.v1 (when `start` was asked to read it), oldest first. */
  get requests(): Envelope<Record<string, unknown>>[] {
    return this.kit.recordsOn(this.topics.requests);
  }

  /** The first instance of the service, started by `start`. */
  get service(): RunningService {
    return this.instances[0]!;
  }

  /** Starts (another) instance of the service on the same topics, with a schema of its own. */
  async startService(env: Record<string, string> = {}): Promise<RunningService> {
    const schema = this.instances.length === 0 ? this.kit.schema : this.kit.newSchema();
    const service = await this.kit.startService({ schema, env });
    this.instances.push(service);
    return service;
  }

  /** A fresh id, as the gateway mints them (unique across kinds, which is all a test needs). */
  id(): number {
    const id = this.nextId;
    this.nextId += 1;
    return id;
  }

  /** A workspace no test of the suite has written to yet. */
  workspace(): number {
    this.nextWorkspace += 1;
    return this.nextWorkspace;
  }

  /** Upserts a contact under a fresh id, as POST /api/v1/contacts/upsert does (limit: the plan's). */
  upsert(workspaceId: number, body: object, limit = 1000): Promise<Outcome> {
    return this.request(CONTACT_REQUEST_TYPES.upsert, workspaceId, {
      contact_id: this.id(),
      contact_limit: limit,
      ...body,
    });
  }

  /** A request record as the gateway builds it. */
  envelope(type: string, workspaceId: number, data: object, options: RequestOptions = {}): Envelope {
    return this.kit.envelope(type, workspaceId, data, options);
  }

  /** Produces records back to back (one produce request), keyed by workspace as the gateway does. */
  produce(...envelopes: Envelope[]): Promise<void> {
    return this.kit.produce(...envelopes);
  }

  async outcomeOf(envelope: Envelope, timeoutMs = 15000): Promise<Outcome> {
    return answerOf(await this.kit.outcomeOf(envelope, timeoutMs));
  }

  /** Produces one request and waits for its outcome, as the gateway's write path does. */
  async request(
    type: string,
    workspaceId: number,
    data: object,
    options: RequestOptions = {},
  ): Promise<Outcome> {
    return answerOf(await this.kit.request(type, workspaceId, data, options));
  }

  /** The facts a request caused, once at least `count` of them are on cms.contacts.v1. */
  async factsOf(outcome: Outcome, count = 1): Promise<Envelope<Record<string, unknown>>[]> {
    const requestId = outcome.envelope.causationid;
    return this.waitFor(`${count} facts of ${requestId}`, () => {
      const found = this.facts.filter((fact) => fact.causationid === requestId);
      return found.length >= count ? found : undefined;
    });
  }

  /** The facts a request caused, after giving stragglers a moment (for asserting that none came). */
  async settledFactsOf(outcome: Outcome): Promise<Envelope<Record<string, unknown>>[]> {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return this.facts.filter((fact) => fact.causationid === outcome.envelope.causationid);
  }

  async get(
    path: string,
    workspaceId?: number,
    service: Pick<RunningService, 'url'> = this.instances[0] ?? this.process!,
  ): Promise<Reply> {
    const response = await fetch(`${service.url}${path}`, {
      headers: workspaceId === undefined ? {} : { 'x-workspace-id': String(workspaceId) },
    });
    return { status: response.status, body: (await response.json()) as Reply['body'] };
  }

  async post(path: string, body: unknown, workspaceId: number): Promise<Reply> {
    const service = this.instances[0] ?? this.process!;
    const response = await fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-workspace-id': String(workspaceId) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Reply['body'] };
  }

  dataSourceOf(service: RunningService): DataSource {
    return service.app.get(DataSource);
  }

  stop(): Promise<void> {
    return this.kit.stop();
  }

  waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 15000): Promise<T> {
    return this.kit.waitFor(what, probe, timeoutMs);
  }
}

/** An ISO 8601 UTC time with milliseconds. */
export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
