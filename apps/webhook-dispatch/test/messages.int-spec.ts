import { randomBytes } from 'node:crypto';

import {
  createEnvelope,
  deterministicId,
  MESSAGING_FACT_TYPES,
  SUPPRESSION_FACT_TYPES,
  WEBHOOK_EVENT_TYPES,
} from '@cms/contracts';

import { Receiver, type ReceivedRequest } from './receiver.fixture';
import { verifySignature } from './support/signature-verifier';
import { received, sleep } from './support/wait';
import { makeTestCertificates, type TestCertificates } from './tls.fixture';
import { DispatchHarness, workspaceId } from './webhook-dispatch.harness';

/**
 * The message.* webhooks: the messaging service's facts on cms.messaging.v1 become deliveries to the
 * endpoints that chose their kind, with the specification's data, and the events of one message reach
 * an endpoint in the order of its facts (extensions §9, Statuses).
 */
let tls: TestCertificates;
let harness: DispatchHarness;
const receivers: Receiver[] = [];

beforeAll(async () => {
  tls = makeTestCertificates();
  harness = await DispatchHarness.start({
    tls,
    env: { WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128', WEBHOOK_RETRY_DELAYS: '1,1,1,1,1,1' },
  });
});

afterAll(async () => {
  await harness?.stop();
  for (const receiver of receivers) await receiver.close();
  tls?.remove();
});

async function receiver(behaviour?: Parameters<typeof Receiver.start>[1]): Promise<Receiver> {
  const started = await Receiver.start(tls, behaviour);
  receivers.push(started);
  return started;
}

function messageId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}

/** What the receiver saw, in arrival order: the event kind, the message and the answer given. */
function events(requests: ReceivedRequest[]): Array<[string, string]> {
  return requests.map((request) => {
    const envelope = JSON.parse(request.body) as { type: string; data: { id: string } };
    return [envelope.type, envelope.data.id];
  });
}

const { messageSent, messageDelivered, messageRead, messageFailed, messageSuppressed, messageQueued } =
  MESSAGING_FACT_TYPES;

describe('a message fact on the messaging topic', () => {
  it('reaches an endpoint that chose its kind, signed, with exactly the specification data', async () => {
    const ws = workspaceId();
    const hooks = await receiver();
    const { id: endpointId, secret } = await harness.createEndpoint(ws, hooks.url(), [
      'message.failed',
      'message.sent',
    ]);
    const id = messageId();
    const fact = harness.messageFact(ws, messageFailed, {
      id,
      channel: 'whatsapp',
      recipient: '+447700900555',
      template: 'order_update',
      workflow: { id: 5, name: 'Onboarding', run_id: 77, step: 'send-welcome' },
      campaign_id: 12,
      test: true,
      fallback_from: 'msg_ffffffffffffffffffffffffffffffff',
      failure: {
        code: 'not_on_channel',
        reason: 'The number is not on WhatsApp.',
        fix: 'Send through SMS instead.',
        provider_code: '131026',
      },
      suppression: null,
      contact: { id: 9, external_id: 'crm-9', name: 'Grace', phone: '+447700900555', email: 'g@example.com' },
      sent_at: '2026-03-01T11:59:58.000Z',
      failed_at: '2026-03-01T12:00:00.000Z',
      body: 'Your order shipped',
    });
    await harness.publishMessageFacts([fact]);

    const deliveryId = deterministicId(fact.id, endpointId);
    const [request] = await received(hooks, 1, deliveryId);
    expect(request!.headers['service-event']).toBe('message.failed');
    expect(
      verifySignature(
        String(request!.headers['service-signature']),
        request!.body,
        secret,
        Math.floor(Date.now() / 1000),
      ),
    ).toBe(true);
    expect(request!.body).toBe(
      JSON.stringify({
        id: deliveryId,
        type: 'message.failed',
        created_at: new Date(fact.time).toISOString(),
        data: {
          id,
          status: 'failed',
          channel: 'whatsapp',
          recipient: '+447700900555',
          template: 'order_update',
          workflow: { id: 5, name: 'Onboarding', run_id: 77, step: 'send-welcome' },
          campaign_id: 12,
          test: true,
          bot: null,
          fallback_from: 'msg_ffffffffffffffffffffffffffffffff',
          failure: {
            code: 'not_on_channel',
            reason: 'The number is not on WhatsApp.',
            fix: 'Send through SMS instead.',
            provider_code: '131026',
          },
          contact: {
            id: 9,
            external_id: 'crm-9',
            name: 'Grace',
            phone: '+447700900555',
            email: 'g@example.com',
          },
          sent_at: '2026-03-01T11:59:58.000Z',
          delivered_at: null,
          read_at: null,
          failed_at: '2026-03-01T12:00:00.000Z',
        },
      }),
    );
    const delivery = await harness.delivery(ws, endpointId, deliveryId, (d) => d.status === 'succeeded');
    expect(delivery).toMatchObject({ event_type: 'message.failed', status: 'succeeded' });
  });

  it('goes to no endpoint that did not choose its kind, and message.queued is no webhook', async () => {
    const ws = workspaceId();
    const hooks = await receiver();
    const { id: endpointId } = await harness.createEndpoint(ws, hooks.url(), ['message.delivered']);
    const id = messageId();
    await harness.publishMessageFacts(
      [messageQueued, messageSent, messageDelivered, messageRead, messageSuppressed].map((type) =>
        harness.messageFact(ws, type, { id }),
      ),
    );

    await received(hooks, 1);
    await sleep(1000);
    expect(events(hooks.requests)).toEqual([['message.delivered', id]]);
    const deliveries = await harness.deliveries(ws, endpointId);
    expect(deliveries.map((d) => d.event_type)).toEqual(['message.delivered']);
  });

  it('makes no webhook of the suppression list facts, and reads past them without a dead letter', async () => {
    const ws = workspaceId();
    const hooks = await receiver();
    const { id: endpointId } = await harness.createEndpoint(ws, hooks.url(), [...WEBHOOK_EVENT_TYPES]);
    const entry = {
      id: `sup_${randomBytes(16).toString('hex')}`,
      channel: 'sms',
      address: '+447700900123',
      reason: 'opted_out',
      source: 'keyword',
      at: new Date().toISOString(),
    };
    const changes = [SUPPRESSION_FACT_TYPES.added, SUPPRESSION_FACT_TYPES.removed].map((type) =>
      createEnvelope({
        type,
        source: 'messaging',
        workspaceid: String(ws),
        subject: entry.id,
        time: entry.at,
        data: entry,
      }),
    );
    // After them on the workspace's partition: once its delivery is made, they were read.
    const id = messageId();
    await harness.publishMessageFacts([...changes, harness.messageFact(ws, messageDelivered, { id })]);

    await received(hooks, 1);
    expect(events(hooks.requests)).toEqual([['message.delivered', id]]);
    const deliveries = await harness.deliveries(ws, endpointId);
    expect(deliveries.map((d) => d.event_type)).toEqual(['message.delivered']);
    const [dead]: Array<{ n: number }> = await harness.db.query(
      `SELECT count(*)::int AS n FROM dead_letters WHERE position(convert_to($1, 'UTF8') in value) > 0`,
      [entry.id],
    );
    expect(dead!.n).toBe(0);
  });
});

describe('the events of one message', () => {
  it('reach an endpoint in order: a later one waits while an earlier one waits for its retry', async () => {
    const ws = workspaceId();
    const [held, other] = [messageId(), messageId()];
    let refused = false;
    // The first attempt of the held message's message.sent fails; everything else is answered at once.
    const hooks = await receiver((request) => {
      const { type, data } = JSON.parse(request.body) as { type: string; data: { id: string } };
      if (type === 'message.sent' && data.id === held && !refused) {
        refused = true;
        return { status: 503 };
      }
      return { status: 204 };
    });
    const { id: endpointId } = await harness.createEndpoint(ws, hooks.url(), [
      'message.sent',
      'message.delivered',
      'message.read',
    ]);
    const sent = harness.messageFact(ws, messageSent, { id: held });
    await harness.publishMessageFacts([
      sent,
      harness.messageFact(ws, messageDelivered, { id: held }),
      harness.messageFact(ws, messageSent, { id: other }),
      harness.messageFact(ws, messageRead, { id: held }),
      harness.messageFact(ws, messageDelivered, { id: other }),
    ]);

    await received(hooks, 6);
    await sleep(500);
    const seen = events(hooks.requests);
    expect(seen).toHaveLength(6);
    // The held message: its message.sent twice (refused, then answered), then the later two in order.
    expect(seen.filter(([, id]) => id === held)).toEqual([
      ['message.sent', held],
      ['message.sent', held],
      ['message.delivered', held],
      ['message.read', held],
    ]);
    // Another message's events are not held back by it: they went out, in order, before the retry.
    expect(seen.filter(([, id]) => id === other)).toEqual([
      ['message.sent', other],
      ['message.delivered', other],
    ]);
    const heldSent = seen.flatMap(([type, id], index) =>
      type === 'message.sent' && id === held ? [index] : [],
    );
    expect(seen.findIndex(([type, id]) => type === 'message.delivered' && id === other)).toBeLessThan(
      heldSent[1]!,
    );
    const retried = hooks.forDelivery(deterministicId(sent.id, endpointId));
    expect(retried.map((request) => request.at - retried[0]!.at)[1]).toBeGreaterThanOrEqual(900);
    const deliveries = await harness.deliveries(ws, endpointId);
    expect(deliveries.every((delivery) => delivery.status === 'succeeded')).toBe(true);
  });

  it('go one at a time: a later one is not sent while an earlier one is still being answered', async () => {
    const ws = workspaceId();
    const id = messageId();
    const hooks = await receiver((request) =>
      request.headers['service-event'] === 'message.sent' ? { status: 204, delayMs: 800 } : { status: 204 },
    );
    await harness.createEndpoint(ws, hooks.url(), ['message.sent', 'message.delivered']);
    await harness.publishMessageFacts([
      harness.messageFact(ws, messageSent, { id }),
      harness.messageFact(ws, messageDelivered, { id }),
    ]);

    const [first, second] = await received(hooks, 2);
    expect(events([first!, second!])).toEqual([
      ['message.sent', id],
      ['message.delivered', id],
    ]);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(750);
    expect(hooks.maxInFlight).toBe(1);
  });

  it('are not held back by an earlier one that failed for good', async () => {
    const ws = workspaceId();
    const id = messageId();
    const hooks = await receiver((request) =>
      request.headers['service-event'] === 'message.sent' ? { status: 500 } : { status: 204 },
    );
    const { id: endpointId } = await harness.createEndpoint(ws, hooks.url(), [
      'message.sent',
      'message.delivered',
    ]);
    const sent = harness.messageFact(ws, messageSent, { id });
    await harness.publishMessageFacts([sent, harness.messageFact(ws, messageDelivered, { id })]);

    const requests = await received(hooks, 8, undefined, 30_000);
    expect(events(requests)).toEqual([
      ...Array.from({ length: 7 }, () => ['message.sent', id]),
      ['message.delivered', id],
    ]);
    const failed = await harness.delivery(ws, endpointId, deterministicId(sent.id, endpointId), (d) =>
      ['failed', 'succeeded'].includes(d.status),
    );
    expect(failed.status).toBe('failed');
  });
});
