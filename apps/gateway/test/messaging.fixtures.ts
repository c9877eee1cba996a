import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
  acceptedOutcome,
  MESSAGING_REQUEST_TYPES,
  rejectedOutcome,
  SUPPRESSION_REQUEST_TYPES,
  type Envelope,
} from '@cms/contracts';
import { createKafka } from '@cms/kafka';
import { eventually, testStack, uniqueName } from '@cms/testing';
import { Partitioners, type Consumer, type Producer } from 'kafkajs';

import { ADMIN_TOKEN, type Answer, type Harness } from './gateway.harness';

type Data = { data: Record<string, unknown> };

/** One request a fake service received. */
export interface Received {
  method: string;
  target: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export type Route = (
  received: Received,
) => { status: number; body?: unknown; headers?: Record<string, string> } | undefined;

/**
 * Stands in for a service behind the gateway's proxy: answers by the first route that answers, 404
 * JSON:API otherwise, and keeps every request it received.
 */
export class FakeService {
  readonly received: Received[] = [];
  private server: Server | undefined;

  constructor(private readonly routes: Route[]) {}

  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.answer(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** What it received since `from` (an earlier length of `received`). */
  since(from: number): Received[] {
    return this.received.slice(from);
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const received: Received = {
      method: request.method ?? 'GET',
      target: request.url ?? '/',
      headers: request.headers,
      body: text === '' ? undefined : (JSON.parse(text) as unknown),
    };
    this.received.push(received);
    const answer = this.routes.reduce<ReturnType<Route>>(
      (found, route) => found ?? route(received),
      undefined,
    ) ?? { status: 404, body: { errors: [{ status: '404', title: 'Not Found', detail: 'Not here.' }] } };
    response.writeHead(answer.status, { ...answer.headers, 'content-type': 'application/json' });
    response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  }
}

/** The HTTP status the messaging service answers each of its requests with. */
const ACCEPTED_STATUS: Partial<Record<string, 200 | 201 | 202 | 204>> = {
  [MESSAGING_REQUEST_TYPES.channelCreate]: 201,
  [MESSAGING_REQUEST_TYPES.channelUpdate]: 200,
  [MESSAGING_REQUEST_TYPES.channelDelete]: 204,
  [MESSAGING_REQUEST_TYPES.pushSubscriptionCreate]: 201,
  [MESSAGING_REQUEST_TYPES.sandboxInbound]: 202,
  [MESSAGING_REQUEST_TYPES.templateCreate]: 201,
  [MESSAGING_REQUEST_TYPES.templateUpdate]: 200,
  [MESSAGING_REQUEST_TYPES.templateDelete]: 204,
  [MESSAGING_REQUEST_TYPES.messageSend]: 202,
  [SUPPRESSION_REQUEST_TYPES.create]: 201,
  [SUPPRESSION_REQUEST_TYPES.delete]: 204,
};

/** The Idempotency-Key the fake decider treats as one it has seen: it answers 200. */
export const REPEATED_KEY = 'seen-before';
/** A channel or template name the fake decider refuses, as the service refuses a duplicate name. */
export const REFUSED_NAME = 'taken';

/**
 * Stands in for the messaging service's requests consumer: keeps every record on the requests topic,
 * and answers each messaging request a client waits for with an outcome that echoes its payload (201,
 * 200, 202 or 204 by type; 422 at `/data/attributes/name` for REFUSED_NAME; 200 for REPEATED_KEY).
 */
export class FakeDecider {
  readonly records: Envelope[] = [];
  private consumer: Consumer | undefined;
  private producer: Producer | undefined;

  constructor(private readonly harness: Harness) {}

  async start(): Promise<void> {
    const kafka = createKafka({ brokers: (await testStack()).kafkaBrokers, clientId: 'fake-messaging' });
    this.producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await this.producer.connect();
    this.consumer = kafka.consumer({ groupId: uniqueName('fake-messaging'), maxWaitTimeInMs: 20 });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.harness.topics.requests, fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        const record = JSON.parse(message.value!.toString()) as Envelope<Record<string, unknown>>;
        this.records.push(record);
        const status = ACCEPTED_STATUS[record.type];
        if (status === undefined) return;
        const outcome =
          record.data.name === REFUSED_NAME
            ? rejectedOutcome(record, 'messaging', 422, [
                {
                  status: '422',
                  title: 'Validation Error',
                  detail: 'name is taken',
                  source: { pointer: '/data/attributes/name' },
                },
              ])
            : acceptedOutcome(
                record,
                'messaging',
                record.data.idempotency_key === REPEATED_KEY ? 200 : status,
                status === 204 ? undefined : { echo: record.data },
              );
        await this.producer!.send({
          topic: this.harness.topics.outcomes,
          messages: [{ key: record.workspaceid, value: JSON.stringify(outcome) }],
        });
      },
    });
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
    await this.producer?.disconnect();
  }

  /** The record a request made: its id is the correlation id the gateway answered in X-Request-Id. */
  async recordOf(answer: Answer): Promise<Envelope<Record<string, unknown>>> {
    const id = answer.headers.get('x-request-id');
    return eventually(
      `the record of request ${id}`,
      async () => this.records.find((record) => record.id === id) as Envelope<Record<string, unknown>>,
      20000,
    );
  }

  /** Whether a request of that correlation id was recorded at all (after the others that came before). */
  recorded(answer: Answer): boolean {
    const id = answer.headers.get('x-request-id');
    return this.records.some((record) => record.id === id);
  }
}

/** A workspace of `plan` and one key of `permissions`. */
export async function tenant(
  harness: Harness,
  plan = 'pro',
  permissions = ['read', 'create', 'update', 'delete'],
): Promise<{ workspaceId: number; key: string }> {
  const workspace = await harness.call('POST', '/admin/v1/workspaces', {
    token: ADMIN_TOKEN,
    body: { name: 'Acme', plan },
  });
  const workspaceId = (workspace.body as Data).data.id as number;
  const key = await harness.call('POST', `/admin/v1/workspaces/${workspaceId}/api-keys`, {
    token: ADMIN_TOKEN,
    body: { name: 'k', permissions },
  });
  return { workspaceId, key: (key.body as Data).data.key as string };
}
