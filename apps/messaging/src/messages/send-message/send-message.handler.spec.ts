import {
  createEnvelope,
  MESSAGING_FACT_TYPES,
  MESSAGING_REQUEST_TYPES,
  type DecodedRecord,
  type MessageSendRequestedV1,
} from '@cms/contracts';
import type { EntityManager } from 'typeorm';

import type { ChannelEntity } from '../../channels/channel.entity';
import { MessagingDecision } from '../../decisions/messaging-decision';
import type { MessageEntity } from '../message.entity';
import type { MessageStore, TemplateRef } from '../message.repository';
import type { MessageResource } from '../message.resource';
import { fallBack } from '../status-change';
import { SendMessageHandler } from './send-message.handler';

const WORKSPACE = 7;
const SMS = { id: 11, workspaceId: WORKSPACE, type: 'sms', isDefault: true } as ChannelEntity;
const EMAIL = { id: 12, workspaceId: WORKSPACE, type: 'email', isDefault: true } as ChannelEntity;
const TEMPLATES: TemplateRef[] = [
  { id: 21, name: 'offer-sms', channel: 'sms' },
  { id: 22, name: 'offer-email', channel: 'email' },
];

/** These decisions make no statement: the store holds every write. */
const manager = {} as EntityManager;

/**
 * What sending a message reads and writes, in memory: two default channels and their templates, the
 * messages made. The contact is not in this service's view (the fact's block names only its id).
 */
function memoryStore(): MessageStore & { messages: Map<string, MessageEntity> } {
  const messages = new Map<string, MessageEntity>();
  const store = {
    messages,
    findByIdempotencyKey: () => Promise.resolve(null),
    exists: (id: string) => Promise.resolve(messages.has(id)),
    insert: (message: MessageEntity) => {
      messages.set(message.id, { ...message });
      return Promise.resolve();
    },
    channel: (_workspaceId: number, id: number) =>
      Promise.resolve([SMS, EMAIL].find((channel) => channel.id === id) ?? null),
    defaultChannel: (_workspaceId: number, type: string) =>
      Promise.resolve([SMS, EMAIL].find((channel) => channel.type === type) ?? null),
    template: (_workspaceId: number, id: number) =>
      Promise.resolve(TEMPLATES.find((template) => template.id === id) ?? null),
    contact: () => Promise.resolve(null),
    addSendJob: () => Promise.resolve(),
    addTimers: () => Promise.resolve(),
  };
  return store as unknown as MessageStore & { messages: Map<string, MessageEntity> };
}

function decisionOf<T>(type: string, data: T, store: MessageStore): MessagingDecision<T> {
  const record = {
    ...createEnvelope({
      type,
      source: 'broadcasts',
      workspaceid: String(WORKSPACE),
      data,
      time: '2026-11-24T10:00:00.000Z',
    }),
    writtenVersion: 1,
  } as DecodedRecord<T>;
  return new MessagingDecision(record, manager, store);
}

/** A notification send's request: sms, then email when the sms fails for the recipient. */
function sendRequest(extra: Partial<MessageSendRequestedV1>): MessageSendRequestedV1 {
  return {
    contact_id: 5,
    route: [
      { channel: 'sms', template_id: 21 },
      { channel: 'email', template_id: 22 },
    ],
    variables: { code: 'X' },
    purpose: 'marketing',
    ...extra,
  };
}

async function send(store: MessageStore, data: MessageSendRequestedV1) {
  const decision = decisionOf(MESSAGING_REQUEST_TYPES.messageSend, data, store);
  const answer = await new SendMessageHandler().handle(decision);
  return { answer, facts: decision.publishedFacts, resource: answer.resource as unknown as MessageResource };
}

describe('SendMessageHandler', () => {
  it("stores a notification send's campaign and test mark on its message, its answer and its queued fact", async () => {
    const store = memoryStore();
    const { answer, facts, resource } = await send(store, sendRequest({ campaign_id: 42, test: true }));
    expect(answer.status).toBe(202);
    expect(resource).toMatchObject({ campaign_id: 42, test: true, workflow: null });
    expect(store.messages.get(resource.id)).toMatchObject({
      campaignId: 42,
      test: true,
      // Asked for by the broadcasts service, not by the customer.
      history: [{ status: 'queued', source: 'service' }],
    });
    expect(facts.map((fact) => [fact.type, fact.data])).toEqual([
      [MESSAGING_FACT_TYPES.messageQueued, expect.objectContaining({ campaign_id: 42, test: true })],
    ]);
  });

  it('marks a message of the messages API neither, as asked by the customer', async () => {
    const store = memoryStore();
    const { facts, resource } = await send(store, sendRequest({}));
    expect(resource).toMatchObject({ campaign_id: null, test: false });
    expect(store.messages.get(resource.id)?.history).toEqual([
      expect.objectContaining({ status: 'queued', source: 'api' }),
    ]);
    expect(facts[0]!.data).toMatchObject({ campaign_id: null, test: false });
  });

  it("carries the campaign and the test mark to the message of the route's next step", async () => {
    const store = memoryStore();
    const { resource } = await send(store, sendRequest({ campaign_id: 42, test: true }));
    const failed = store.messages.get(resource.id)!;
    const decision = decisionOf(MESSAGING_REQUEST_TYPES.messageAttempt, {}, store);
    await fallBack(decision, store, failed);
    const next = [...store.messages.values()].find((message) => message.fallbackFrom === resource.id);
    expect(next).toMatchObject({ channelType: 'email', campaignId: 42, test: true });
    expect(decision.publishedFacts[0]!.data).toMatchObject({
      id: next!.id,
      campaign_id: 42,
      test: true,
      fallback_from: resource.id,
    });
  });
});
