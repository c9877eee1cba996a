import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';

import {
  CONSENT_FACT_TYPES,
  createEnvelope,
  encryptSecret,
  generateWebhookSecret,
  topicNames,
  WEBHOOK_REQUEST_TYPES,
  type Envelope,
  type RequestAcceptedV1,
  type RequestRejectedV1,
  type Topics,
  type WebhookDeliveryResource,
  type WebhookEndpointResource,
  type WebhookEventType,
} from '@cms/contracts';
import { BatchingProducer, createKafka, ensureTopics, OutcomeWaiter, topicSpecs } from '@cms/kafka';
import { createDataSource, dropSchema } from '@cms/persistence';
import { deleteTestTopics, eventually, testStack, uniqueName, type TestStack } from '@cms/testing';
import type { Admin, Kafka } from 'kafkajs';
import pino, { type Logger } from 'pino';
import type { DataSource } from 'typeorm';

import { loadConfig, type WebhookDispatchConfig } from '../src/config';
import type { Resolver } from '../src/ssrf/guarded-connector';
import { startWebhookDispatch, type WebhookDispatchApp } from '../src/webhook-dispatch.app';
import type { TestCertificates } from './tls.fixture';

const WORKSPACE_ROOT = join(__dirname, '..', '..', '..');
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

export type Outcome = Envelope<RequestAcceptedV1 | RequestRejectedV1> & { type: string };

export interface ConsentInput {
  status: 'granted' | 'revoked';
  channel?: string;
  contact?: {
    id: number;
    external_id?: string | null;
    name?: string | null;
    phone?: string | null;
    email?: string | null;
  };
  /** The fact's time; defaults to now. */
  time?: string;
}

export interface HarnessOptions {
  tls: TestCertificates;
  env?: Record<string, string>;
  /** In this process (the default; trusts the test CA through the agent's `ca`), or as a child process
   * that trusts it through NODE_EXTRA_CA_CERTS, as a deployment would. */
  mode?: 'in-process' | 'child';
  /** In-process only: how host names resolve. */
  resolve?: Resolver;
  /** In-process only: where the service logs (silent unless TEST_LOG_LEVEL is set). */
  logger?: Logger;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * webhook-dispatch of its own: topics under a unique namespace, a unique schema, and the gateway and
 * contacts played by the test, producing request records and consent facts exactly as they would.
 */
export class DispatchHarness {
  readonly secretsKey = randomBytes(32).toString('base64');
  private service: WebhookDispatchApp | undefined;
  private child: ChildProcess | undefined;
  private childLog = '';
  private port = 0;

  private constructor(
    readonly stack: TestStack,
    readonly namespace: string,
    readonly topics: Topics,
    readonly schema: string,
    private readonly admin: Admin,
    readonly kafka: Kafka,
    private readonly producer: BatchingProducer,
    private readonly waiter: OutcomeWaiter,
    readonly db: DataSource,
    private readonly options: HarnessOptions,
  ) {}

  static async start(options: HarnessOptions): Promise<DispatchHarness> {
    const stack = await testStack();
    const namespace = uniqueName('wd').replace(/_/g, '-');
    const topics = topicNames(namespace);
    const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'webhook-dispatch-test' });
    const admin = kafka.admin();
    await admin.connect();
    await ensureTopics(
      admin,
      topicSpecs({ requestPartitions: 2, factPartitions: 2, outcomePartitions: 1 }, topics),
    );
    const producer = new BatchingProducer(kafka);
    await producer.connect();
    const waiter = new OutcomeWaiter({
      kafka,
      logger,
      topic: topics.outcomes,
      groupPrefix: `${namespace}-outcomes`,
    });
    await waiter.start();
    const schema = uniqueName('webhook_dispatch');
    const db = createDataSource({
      url: stack.databaseUrl,
      schema,
      applicationName: 'webhook-dispatch-test',
      entities: [],
      migrations: [],
      poolSize: 2,
    });
    await db.initialize();
    const harness = new DispatchHarness(
      stack,
      namespace,
      topics,
      schema,
      admin,
      kafka,
      producer,
      waiter,
      db,
      options,
    );
    await harness.startService();
    return harness;
  }

  get env(): Record<string, string> {
    return {
      HTTP_PORT: String(this.port),
      DATABASE_URL: this.stack.databaseUrl,
      DATABASE_SCHEMA: this.schema,
      KAFKA_BROKERS: this.stack.kafkaBrokers.join(','),
      TOPIC_NAMESPACE: this.namespace,
      SECRETS_KEY: this.secretsKey,
      WEBHOOK_POLL_MS: '100',
      ...this.options.env,
    };
  }

  get config(): WebhookDispatchConfig {
    return loadConfig(this.env);
  }

  get url(): string {
    return this.service?.url ?? `http://127.0.0.1:${this.port}`;
  }

  get app(): WebhookDispatchApp {
    if (!this.service) throw new Error('the service runs in a child process');
    return this.service;
  }

  async startService(): Promise<void> {
    if (this.options.mode === 'child') {
      this.port = await freePort();
      this.spawnChild();
      await eventually(
        'the child service to be ready',
        async () => (await fetch(`${this.url}/ready`).catch(() => undefined))?.ok,
        60_000,
        200,
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${this.childLog.slice(-4000)}`);
      });
      return;
    }
    this.port = 0;
    this.service = await startWebhookDispatch(this.config, this.options.logger ?? logger, {
      ca: this.options.tls.ca,
      ...(this.options.resolve ? { resolve: this.options.resolve } : {}),
    });
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed. */
  async killService(): Promise<void> {
    const child = this.child;
    if (!child) throw new Error('only a child process can be killed');
    this.child = undefined;
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async stopService(): Promise<void> {
    if (this.child) await this.killService();
    const service = this.service;
    this.service = undefined;
    await service?.close();
  }

  private spawnChild(): void {
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', join(WORKSPACE_ROOT, 'apps', 'webhook-dispatch', 'src', 'main.ts')],
      {
        cwd: WORKSPACE_ROOT,
        env: {
          ...process.env,
          ...this.env,
          NODE_OPTIONS: '--no-warnings',
          NODE_EXTRA_CA_CERTS: this.options.tls.caFile,
          SWC_NODE_PROJECT: join(WORKSPACE_ROOT, 'tsconfig.json'),
          LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const keep = (chunk: Buffer): void => {
      this.childLog = (this.childLog + chunk.toString()).slice(-20_000);
      if (process.env.TEST_LOG_LEVEL) process.stderr.write(chunk);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.child = child;
  }

  get childOutput(): string {
    return this.childLog;
  }

  /** Produces a request record as the gateway does and waits for its outcome. */
  async request(workspaceId: number, type: string, data: object): Promise<Outcome> {
    const correlationid = randomUUID();
    const envelope = createEnvelope({
      id: correlationid,
      type,
      source: 'gateway',
      workspaceid: String(workspaceId),
      correlationid,
      data,
    });
    const outcome = this.waiter.wait(correlationid, 30_000);
    await this.producer.send(this.topics.requests, [
      {
        key: envelope.workspaceid,
        value: JSON.stringify(envelope),
        headers: { ce_type: type, correlation_id: correlationid },
      },
    ]);
    const answer = await outcome;
    if (!answer) throw new Error(`no outcome for ${type}`);
    return answer as Outcome;
  }

  /** POST /api/v1/webhook-endpoints as the gateway performs it: it mints the id and the secret. */
  async createEndpoint(
    workspaceId: number,
    url: string,
    eventTypes: WebhookEventType[] = ['consent.granted', 'consent.revoked'],
    description?: string,
  ): Promise<{ id: string; secret: string; outcome: Outcome }> {
    const id = randomUUID();
    const secret = generateWebhookSecret();
    const outcome = await this.request(workspaceId, WEBHOOK_REQUEST_TYPES.endpointCreate, {
      endpoint_id: id,
      url,
      event_types: eventTypes,
      secret_sealed: encryptSecret(secret, this.secretsKey),
      ...(description !== undefined ? { description } : {}),
    });
    return { id, secret, outcome };
  }

  async rollSecret(workspaceId: number, endpointId: string): Promise<{ secret: string; outcome: Outcome }> {
    const secret = generateWebhookSecret();
    const outcome = await this.request(workspaceId, WEBHOOK_REQUEST_TYPES.endpointRollSecret, {
      endpoint_id: endpointId,
      secret_sealed: encryptSecret(secret, this.secretsKey),
    });
    return { secret, outcome };
  }

  /** A consent fact as the contacts service publishes it on cms.contacts.v1. */
  consentFact(workspaceId: number, input: ConsentInput): Envelope {
    const contact = input.contact ?? {
      id: 42,
      external_id: 'crm-42',
      name: 'Ada',
      phone: '+447700900123',
      email: 'ada@example.com',
    };
    const time = input.time ?? new Date().toISOString();
    return createEnvelope({
      type: input.status === 'granted' ? CONSENT_FACT_TYPES.granted : CONSENT_FACT_TYPES.revoked,
      source: 'contacts',
      workspaceid: String(workspaceId),
      subject: String(contact.id),
      time,
      data: {
        channel: input.channel ?? 'whatsapp',
        status: input.status,
        source: 'api',
        contact: {
          id: contact.id,
          external_id: contact.external_id ?? null,
          name: contact.name ?? null,
          phone: contact.phone ?? null,
          email: contact.email ?? null,
        },
        occurred_at: time,
      },
    });
  }

  async publishFacts(facts: Envelope[]): Promise<void> {
    await this.producer.send(
      this.topics.contacts,
      facts.map((fact) => ({
        key: fact.workspaceid,
        value: JSON.stringify(fact),
        headers: { ce_type: fact.type, ce_id: fact.id, correlation_id: fact.correlationid },
      })),
    );
  }

  async consent(workspaceId: number, input: ConsentInput): Promise<Envelope> {
    const fact = this.consentFact(workspaceId, input);
    await this.publishFacts([fact]);
    return fact;
  }

  /** GET on the internal read API, as the gateway proxies it. */
  async get<T = unknown>(path: string, workspaceId: number): Promise<{ status: number; body: T }> {
    const response = await fetch(`${this.url}/internal/v1/${path}`, {
      headers: { 'x-workspace-id': String(workspaceId), accept: 'application/json' },
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async endpoint(workspaceId: number, id: string): Promise<WebhookEndpointResource> {
    const answer = await this.get<{ data: WebhookEndpointResource }>(`webhook-endpoints/${id}`, workspaceId);
    if (answer.status !== 200) throw new Error(`GET endpoint answered ${answer.status}`);
    return answer.body.data;
  }

  async deliveries(
    workspaceId: number,
    endpointId: string,
    query = 'per_page=100',
  ): Promise<WebhookDeliveryResource[]> {
    const answer = await this.get<{ data: WebhookDeliveryResource[] }>(
      `webhook-endpoints/${endpointId}/deliveries?${query}`,
      workspaceId,
    );
    if (answer.status !== 200) throw new Error(`GET deliveries answered ${answer.status}`);
    return answer.body.data;
  }

  /** Waits until the delivery exists and satisfies `done`. */
  async delivery(
    workspaceId: number,
    endpointId: string,
    deliveryId: string,
    done: (delivery: WebhookDeliveryResource) => boolean,
    timeoutMs = 30_000,
  ): Promise<WebhookDeliveryResource> {
    return eventually(
      `delivery ${deliveryId}`,
      async () => {
        const answer = await this.get<{ data: WebhookDeliveryResource }>(
          `webhook-endpoints/${endpointId}/deliveries/${deliveryId}`,
          workspaceId,
        );
        return answer.status === 200 && done(answer.body.data) ? answer.body.data : undefined;
      },
      timeoutMs,
      50,
    );
  }

  async sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
    return this.db.query(query, params);
  }

  async stop(): Promise<void> {
    await this.stopService().catch(() => undefined);
    await this.waiter.stop();
    await this.producer.disconnect();
    await dropSchema(this.db);
    await this.db.destroy();
    await deleteTestTopics(this.admin, Object.values(this.topics));
    await this.admin.disconnect();
  }
}

/** A workspace id no other suite uses. */
export function workspaceId(): number {
  return 100_000 + Math.floor(Math.random() * 1_000_000_000);
}
