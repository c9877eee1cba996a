import { createEnvelope, OUTCOME_TYPES, topicNames, type Envelope, type Topics } from '@cms/contracts';
import { BatchingProducer, createKafka, ensureTopics, topicSpecs } from '@cms/kafka';
import { createDataSource, dropSchema } from '@cms/persistence';
import { startService, type RunningService } from '@cms/service-kit';
import { deleteTestTopics, testStack, uniqueName, type TestStack } from '@cms/testing';
import type { Admin, Consumer } from 'kafkajs';
import pino from 'pino';
import { DataSource } from 'typeorm';

import { loadConfig, type ContactsConfig } from '../src/config';
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

const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/**
 * Plays the gateway against a contacts service of its own (topics under a unique namespace, a unique
 * schema, an ephemeral port): produces request records exactly as the gateway does and reads what a
 * peer sees, the outcomes, the facts on cms.contacts.v1 and the internal read API.
 */
export class ContactsHarness {
  readonly outcomes = new Map<string, Outcome>();
  readonly facts: Envelope<Record<string, unknown>>[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly instances: Array<{ service: RunningService; schema: string }> = [];
  private nextId = 1;

  private constructor(
    readonly stack: TestStack,
    readonly topics: Topics,
    readonly namespace: string,
    readonly admin: Admin,
    private readonly producer: BatchingProducer,
    private readonly reader: Consumer,
  ) {}

  static async start(): Promise<ContactsHarness> {
    const stack = await testStack();
    const namespace = uniqueName('ct').replace(/_/g, '-');
    const topics = topicNames(namespace);
    const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'contacts-test' });
    const admin = kafka.admin();
    await admin.connect();
    await ensureTopics(
      admin,
      topicSpecs({ requestPartitions: 3, factPartitions: 3, outcomePartitions: 2 }, topics),
    );
    const producer = new BatchingProducer(kafka);
    await producer.connect();
    const reader = kafka.consumer({ groupId: uniqueName('contacts-test-reader'), maxWaitTimeInMs: 20 });
    const harness = new ContactsHarness(stack, topics, namespace, admin, producer, reader);
    await reader.connect();
    await reader.subscribe({ topics: [topics.outcomes, topics.contacts], fromBeginning: true });
    await reader.run({
      eachMessage: async ({ topic, message }) => harness.collect(topic, message.value?.toString() ?? 'null'),
    });
    await harness.startService();
    return harness;
  }

  /** The first instance of the service, started by `start`. */
  get service(): RunningService {
    return this.instances[0]!.service;
  }

  /** Starts (another) instance of the service on the same topics, with a schema of its own. */
  async startService(env: Record<string, string> = {}): Promise<RunningService> {
    const schema = uniqueName('contacts');
    const config: ContactsConfig = loadConfig({
      HTTP_PORT: '0',
      DATABASE_URL: this.stack.databaseUrl,
      DATABASE_SCHEMA: schema,
      KAFKA_BROKERS: this.stack.kafkaBrokers.join(','),
      TOPIC_NAMESPACE: this.namespace,
      ...env,
    });
    const service = await startService(CONTACTS_SERVICE, config, logger);
    this.instances.push({ service, schema });
    return service;
  }

  /** A fresh id, as the gateway mints them (unique across kinds, which is all a test needs). */
  id(): number {
    const id = this.nextId;
    this.nextId += 1;
    return id;
  }

  /** A request record as the gateway builds it. */
  envelope(type: string, workspaceId: number, data: object, options: RequestOptions = {}): Envelope {
    return createEnvelope({
      type,
      source: 'gateway',
      workspaceid: String(workspaceId),
      data,
      ...(options.time !== undefined ? { time: options.time } : {}),
    });
  }

  /** Produces records back to back (one produce request), keyed by workspace as the gateway does. */
  async produce(...envelopes: Envelope[]): Promise<void> {
    await this.producer.send(
      this.topics.requests,
      envelopes.map((envelope) => ({
        key: envelope.workspaceid,
        value: JSON.stringify(envelope),
        headers: { ce_type: envelope.type, correlation_id: envelope.correlationid },
      })),
    );
  }

  async outcomeOf(envelope: Envelope, timeoutMs = 15000): Promise<Outcome> {
    return this.waitFor(
      `the outcome of ${envelope.type} ${envelope.id}`,
      () => this.outcomes.get(envelope.id),
      timeoutMs,
    );
  }

  /** Produces one request and waits for its outcome, as the gateway's write path does. */
  async request(
    type: string,
    workspaceId: number,
    data: object,
    options: RequestOptions = {},
  ): Promise<Outcome> {
    const envelope = this.envelope(type, workspaceId, data, options);
    await this.produce(envelope);
    return this.outcomeOf(envelope);
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

  async get(path: string, workspaceId?: number, service: RunningService = this.service): Promise<Reply> {
    const response = await fetch(`${service.url}${path}`, {
      headers: workspaceId === undefined ? {} : { 'x-workspace-id': String(workspaceId) },
    });
    return { status: response.status, body: (await response.json()) as Reply['body'] };
  }

  dataSourceOf(service: RunningService): DataSource {
    return service.app.get(DataSource);
  }

  async stop(): Promise<void> {
    for (const { service } of this.instances) await service.close();
    await this.reader.disconnect();
    await this.producer.disconnect();
    const dataSource = createDataSource({
      url: this.stack.databaseUrl,
      schema: this.instances[0]?.schema ?? 'public',
      applicationName: 'contacts-test',
      entities: [],
      migrations: [],
    });
    await dataSource.initialize();
    for (const { schema } of this.instances) await dropSchema(dataSource, schema);
    await dataSource.destroy();
    await deleteTestTopics(this.admin, Object.values(this.topics));
    await this.admin.disconnect();
  }

  async waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 15000): Promise<T> {
    const found = probe();
    if (found !== undefined) return found;
    return new Promise<T>((resolve, reject) => {
      const listener = (): void => {
        const value = probe();
        if (value === undefined) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.listeners.add(listener);
    });
  }

  private collect(topic: string, value: string): void {
    const envelope = JSON.parse(value) as Envelope<Record<string, unknown>>;
    if (topic === this.topics.outcomes) {
      const data = envelope.data as {
        status: number;
        resource?: Record<string, unknown>;
        errors?: OutcomeError[];
      };
      // A rebuilding instance answers the same requests again, with the same outcome: keep the first.
      if (!this.outcomes.has(envelope.correlationid)) {
        this.outcomes.set(envelope.correlationid, {
          type: envelope.type === OUTCOME_TYPES.accepted ? 'accepted' : 'rejected',
          status: data.status,
          ...(data.resource !== undefined ? { resource: data.resource } : {}),
          ...(data.errors !== undefined ? { errors: data.errors } : {}),
          envelope,
        });
      }
    } else {
      this.facts.push(envelope);
    }
    for (const listener of [...this.listeners]) listener();
  }
}

/** An ISO 8601 UTC time with milliseconds. */
export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
