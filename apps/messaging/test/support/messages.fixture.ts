import { randomBytes } from 'node:crypto';

import {
  MESSAGING_REQUEST_TYPES,
  SUPPRESSION_FACT_TYPES,
  type ChannelType,
  type Envelope,
} from '@cms/contracts';
import { eventually } from '@cms/testing';

import type { MessagingHarness, Outcome } from './messaging.harness';

/** A message row as the internal read answers it. */
export interface MessageBody {
  id: string;
  status: string;
  channel: string;
  recipient: string | null;
  body: string | null;
  fallback_from: string | null;
  failure: { code: string; reason: string; fix: string; provider_code: string | null } | null;
  suppression: { reason: string; detail: string } | null;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  failed_at: string | null;
  history: Array<{ status: string; at: string; source: string; ignored?: boolean }>;
  [field: string]: unknown;
}

/**
 * Channels, templates and sends for the message suites. Channels and templates are written straight
 * into the service's tables, as their own requests would leave them.
 */
export class MessagesFixture {
  constructor(private readonly harness: MessagingHarness) {}

  async channel(
    workspaceId: number,
    type: ChannelType,
    options: { provider?: string; status?: string; isDefault?: boolean; credentialsSealed?: string } = {},
  ): Promise<number> {
    const id = this.harness.id();
    await this.harness.kit.db.query(
      `INSERT INTO channels (id, workspace_id, type, provider, name, status, is_default, credentials_sealed,
                             metadata, callback_token_hash, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '{}', $9, now(), now())`,
      [
        id,
        workspaceId,
        type,
        options.provider ?? 'sandbox',
        `${type} ${id}`,
        options.status ?? 'active',
        options.isDefault ?? true,
        options.credentialsSealed ?? null,
        randomBytes(32).toString('hex'),
      ],
    );
    return id;
  }

  async template(
    workspaceId: number,
    channel: ChannelType,
    body = 'Hi {{ contact.name }}',
    name = `t${this.harness.id()}`,
  ): Promise<number> {
    const id = this.harness.id();
    await this.harness.kit.db.query(
      `INSERT INTO templates (id, workspace_id, name, channel, language, body, track_links, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'en', $5, true, now(), now())`,
      [id, workspaceId, name, channel, body],
    );
    return id;
  }

  send(workspaceId: number, body: object): Promise<Outcome> {
    return this.harness.request(workspaceId, MESSAGING_REQUEST_TYPES.messageSend, body);
  }

  /** Sends and answers the queued message's id. */
  async sent(workspaceId: number, body: object): Promise<string> {
    const outcome = await this.send(workspaceId, body);
    const resource = (outcome.data as { resource?: { id: string } }).resource;
    if (outcome.data.status !== 202 || resource === undefined) {
      throw new Error(`send refused: ${JSON.stringify(outcome.data)}`);
    }
    return resource.id;
  }

  async message(workspaceId: number, id: string): Promise<MessageBody> {
    const { status, body } = await this.harness.get<{ data: MessageBody }>(`messages/${id}`, workspaceId);
    if (status !== 200) throw new Error(`GET messages/${id}: ${status}`);
    return body.data;
  }

  /** Waits until the message satisfies `check`. */
  until(
    workspaceId: number,
    id: string,
    what: string,
    check: (message: MessageBody) => boolean,
  ): Promise<MessageBody> {
    return eventually(`message ${id} ${what}`, async () => {
      const { status, body } = await this.harness.get<{ data: MessageBody }>(`messages/${id}`, workspaceId);
      return status === 200 && check(body.data) ? body.data : undefined;
    });
  }

  untilStatus(workspaceId: number, id: string, status: string): Promise<MessageBody> {
    return this.until(workspaceId, id, `is ${status}`, (message) => message.status === status);
  }

  /** The suppression.added / suppression.removed facts of a workspace so far, in order. */
  suppressionFacts(workspaceId: number): Envelope<Record<string, unknown>>[] {
    const types: readonly string[] = Object.values(SUPPRESSION_FACT_TYPES);
    return this.harness.kit
      .recordsOn(this.harness.kit.topics.messaging)
      .filter((fact) => types.includes(fact.type) && fact.workspaceid === String(workspaceId));
  }

  /**
   * The workspace's suppression facts once there are `count`. The facts of a workspace arrive in the
   * order of its decisions, so when the last change a test makes publishes one, a fact some earlier
   * decision should not have published is among them.
   */
  untilSuppressionFacts(workspaceId: number, count: number): Promise<Envelope<Record<string, unknown>>[]> {
    return this.harness.kit.waitFor(`${count} suppression facts of workspace ${workspaceId}`, () => {
      const facts = this.suppressionFacts(workspaceId);
      return facts.length >= count ? facts : undefined;
    });
  }

  /** The message.* facts published about a message so far, in order. */
  factsAbout(id: string): Envelope<Record<string, unknown>>[] {
    return this.harness.kit
      .recordsOn(this.harness.kit.topics.messaging)
      .filter((fact) => fact.type.startsWith('message.') && fact.data['id'] === id);
  }

  /** The message the route made to replace `id`. */
  async replacement(workspaceId: number, id: string): Promise<MessageBody> {
    return eventually(`the message replacing ${id}`, async () => {
      const { body } = await this.harness.get<{ data: MessageBody[] }>('messages?per_page=100', workspaceId);
      return body.data.find((message) => message.fallback_from === id);
    });
  }
}

/** Waits for a record of `type` on the requests topic that `match` accepts (one the service appended). */
export async function requestRecord(
  harness: MessagingHarness,
  type: string,
  match: (data: Record<string, unknown>) => boolean,
): Promise<Envelope<Record<string, unknown>>> {
  const consumer = harness.kit.kafka.consumer({
    groupId: `${harness.kit.namespace}-${randomBytes(4).toString('hex')}`,
  });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: harness.kit.topics.requests, fromBeginning: true });
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} on the requests topic`)), 30_000);
      void consumer.run({
        eachMessage: async ({ message }) => {
          const envelope = JSON.parse(message.value!.toString('utf8')) as Envelope<Record<string, unknown>>;
          if (envelope.type === type && match(envelope.data)) {
            clearTimeout(timer);
            resolve(envelope);
          }
          return Promise.resolve();
        },
      });
    });
  } finally {
    await consumer.disconnect();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
