import { randomBytes, randomUUID } from 'node:crypto';

import {
  CONSENT_FACT_TYPES,
  createEnvelope,
  type MessageFactV1,
  encryptSecret,
  generateWebhookSecret,
  WEBHOOK_REQUEST_TYPES,
  type Envelope,
  type Topics,
  type WebhookDeliveryResource,
  type WebhookEndpointResource,
  type WebhookEventType,
} from '@cms/contracts';
import type { RunningService } from '@cms/service-kit';
import { ServiceHarness, type OutcomeEnvelope, type ServiceProcess } from '@cms/service-kit/testing';
import { eventually } from '@cms/testing';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

import type { WebhookDispatchConfig } from '../src/config';
import type { SenderOverrides } from '../src/dispatch/dispatch.module';
import type { Resolver } from '@cms/http';
import { WEBHOOK_DISPATCH_SERVICE } from '../src/webhook-dispatch.service';
import type { TestCertificates } from './tls.fixture';

export type Outcome = OutcomeEnvelope;

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

/** A message fact's data: what a test sets, over a sent SMS to a contact. */
export type MessageInput = Partial<MessageFactV1> & {
  id: string;
  /** The fact's time; defaults to now. */
  time?: string;
};

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

/**
 * webhook-dispatch of its own (the kit's ServiceHarness, one schema across restarts), and the gateway
 * and contacts played by the test, producing request records and consent facts exactly as they would.
 */
export class DispatchHarness {
  private service: RunningService | undefined;
  private child: ServiceProcess | undefined;

  private constructor(
    private readonly kit: ServiceHarness<WebhookDispatchConfig, SenderOverrides>,
    readonly secretsKey: string,
    private readonly options: HarnessOptions,
  ) {}

  static async start(options: HarnessOptions): Promise<DispatchHarness> {
    const secretsKey = randomBytes(32).toString('base64');
    const kit = await ServiceHarness.start({
      definition: WEBHOOK_DISPATCH_SERVICE,
      prefix: 'wd',
      env: { SECRETS_KEY: secretsKey, WEBHOOK_POLL_MS: '100', ...options.env },
      ...(options.logger ? { logger: options.logger } : {}),
    });
    const harness = new DispatchHarness(kit, secretsKey, options);
    await harness.startService();
    return harness;
  }

  get topics(): Topics {
    return this.kit.topics;
  }

  get kafka(): Kafka {
    return this.kit.kafka;
  }

  /** SQL on the service's schema. */
  get db(): DataSource {
    return this.kit.db;
  }

  get url(): string {
    const url = this.service?.url ?? this.child?.url;
    if (!url) throw new Error('the service is not running');
    return url;
  }

  get app(): RunningService {
    if (!this.service) throw new Error('the service runs in a child process');
    return this.service;
  }

  async startService(): Promise<void> {
    if (this.options.mode === 'child') {
      this.child = await this.kit.spawnService({ env: { NODE_EXTRA_CA_CERTS: this.options.tls.caFile } });
      return;
    }
    this.service = await this.kit.startService({
      overrides: {
        ca: this.options.tls.ca,
        ...(this.options.resolve ? { resolve: this.options.resolve } : {}),
      },
    });
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed. */
  async killService(): Promise<void> {
    const child = this.child;
    if (!child) throw new Error('only a child process can be killed');
    this.child = undefined;
    await child.kill();
  }

  async stopService(): Promise<void> {
    if (this.child) await this.killService();
    const service = this.service;
    this.service = undefined;
    if (service) await this.kit.stopService(service);
  }

  /** Produces a request record as the gateway does and waits for its outcome. */
  request(workspaceId: number, type: string, data: object): Promise<Outcome> {
    return this.kit.request(type, workspaceId, data, { timeoutMs: 30_000 });
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

  publishFacts(facts: Envelope[]): Promise<void> {
    return this.kit.publish(this.topics.contacts, facts);
  }

  /**
   * A message fact as the messaging service publishes it on cms.messaging.v1: the message after the
   * change, the envelope's subject its id.
   */
  messageFact(workspaceId: number, type: string, input: MessageInput): Envelope<MessageFactV1> {
    const { time = new Date().toISOString(), ...fields } = input;
    const data: MessageFactV1 = {
      direction: 'outbound',
      status: type.replace(/^message\./, ''),
      channel: 'sms',
      channel_id: 3,
      recipient: '+447700900123',
      template: 'welcome',
      workflow: null,
      campaign_id: null,
      fallback_from: null,
      failure: null,
      suppression: null,
      contact: { id: 42, external_id: 'crm-42', name: 'Ada', phone: '+447700900123', email: null },
      sent_at: time,
      delivered_at: null,
      read_at: null,
      failed_at: null,
      body: 'Hello Ada',
      at: time,
      ...fields,
    };
    return createEnvelope({
      type,
      source: 'messaging',
      workspaceid: String(workspaceId),
      subject: input.id,
      time,
      data,
    });
  }

  /** Publishes message facts on the messaging topic, in the order given, as the messaging service does. */
  publishMessageFacts(facts: Envelope[]): Promise<void> {
    return this.kit.publish(this.topics.messaging, facts);
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
    await this.kit.stop();
  }
}

/** A workspace id no other suite uses. */
export function workspaceId(): number {
  return 100_000 + Math.floor(Math.random() * 1_000_000_000);
}
