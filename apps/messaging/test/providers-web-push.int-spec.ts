import { AddressPolicy, guardedConnector } from '@cms/http';
import { makeTestCertificates, type TestCertificates } from '@cms/testing';
import { Agent, request } from 'undici';
import { generateRequestDetails, generateVAPIDKeys, getVapidHeaders } from 'web-push';

import type { ChannelConnection, OutboundMessage } from '../src/providers/provider';
import { WebPushAdapter } from '../src/providers/web-push/web-push.adapter';
import { FakePushService } from './fakes';

const vapid = generateVAPIDKeys();
const channel: ChannelConnection = {
  id: 'ch_push',
  type: 'browser_push',
  provider: 'web_push',
  credentials: {
    vapid_public_key: vapid.publicKey,
    vapid_private_key: vapid.privateKey,
    subject: 'mailto:ops@shop.example',
  },
  metadata: {},
};

describe('Web Push adapter against a push service', () => {
  let tls: TestCertificates;
  let dispatcher: Agent;
  const push = new FakePushService();
  const refused: string[] = [];
  let adapter: WebPushAdapter;

  const messageFor = (subscription: OutboundMessage['pushSubscription']): OutboundMessage => ({
    messageId: 'msg_000000000000000000000005',
    channelType: 'browser_push',
    recipient: 'sub_1',
    subject: 'Back in stock',
    body: 'The blue kettle is back.',
    callbackUrl: 'https://cms.example/webhook/provider/tok_push',
    ...(subscription !== undefined ? { pushSubscription: subscription } : {}),
  });

  beforeAll(async () => {
    tls = makeTestCertificates('push');
    await push.start(tls);
    dispatcher = new Agent({ connect: { ca: tls.ca } });
    adapter = new WebPushAdapter(
      (url) => {
        if (refused.includes(url)) throw new Error('the address is private');
      },
      { dispatcher, timeoutMs: 3000, ttlSeconds: 3600 },
    );
  });

  afterAll(async () => {
    await push.server.close();
    await dispatcher.close();
    tls.remove();
  });

  it('delivers the encrypted payload with a VAPID JWT for the push service origin', async () => {
    const subscription = push.subscribe(vapid.publicKey);
    const result = await adapter.send(channel, messageFor(subscription));
    expect(result).toEqual({ outcome: 'sent', providerMessageId: expect.stringContaining('/message/') });
    expect(push.delivered).toHaveLength(1);
    const [delivered] = push.delivered;
    expect(JSON.parse(delivered!.payload)).toEqual({
      title: 'Back in stock',
      body: 'The blue kettle is back.',
    });
    expect(delivered!.ttl).toBe(3600);
    expect(delivered!.claims).toMatchObject({ aud: push.server.baseUrl, sub: 'mailto:ops@shop.example' });
  });

  it('has a push service that refuses what a real one refuses: no VAPID, another audience, no encryption', async () => {
    const subscription = push.subscribe(vapid.publicKey);
    const details = generateRequestDetails(subscription, 'x', {
      TTL: 60,
      vapidDetails: { subject: 'mailto:ops@shop.example', ...vapid },
    });
    const post = async (headers: Record<string, string | number>): Promise<number> => {
      const response = await request(subscription.endpoint, {
        method: 'POST',
        headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)])),
        body: details.body,
        dispatcher,
      });
      await response.body.dump();
      return response.statusCode;
    };
    const { Authorization: _authorization, ...unsigned } = details.headers;
    const elsewhere = getVapidHeaders(
      'https://push.elsewhere.example',
      'mailto:ops@shop.example',
      vapid.publicKey,
      vapid.privateKey,
      'aes128gcm',
    );
    await expect(post(unsigned)).resolves.toBe(401);
    await expect(post({ ...details.headers, Authorization: elsewhere.Authorization })).resolves.toBe(401);
    await expect(post({ ...details.headers, 'Content-Encoding': 'aesgcm' })).resolves.toBe(415);
    await expect(post(details.headers)).resolves.toBe(201);
  });

  it('maps a subscription the browser dropped to subscription_expired', async () => {
    const subscription = push.subscribe(vapid.publicKey);
    push.unsubscribe(subscription.endpoint);
    await expect(adapter.send(channel, messageFor(subscription))).resolves.toMatchObject({
      outcome: 'failed',
      code: 'subscription_expired',
      providerCode: '410',
    });
  });

  it("maps a subscription made for another site's key to channel_misconfigured", async () => {
    const subscription = push.subscribe(generateVAPIDKeys().publicKey);
    await expect(adapter.send(channel, messageFor(subscription))).resolves.toMatchObject({
      code: 'channel_misconfigured',
      providerCode: '403',
    });
  });

  it('answers rate_limited with the Retry-After of the push service', async () => {
    push.server.failNext(1, { status: 429, body: 'slow down', headers: { 'retry-after': '2' } });
    await expect(adapter.send(channel, messageFor(push.subscribe(vapid.publicKey)))).resolves.toEqual({
      outcome: 'failed',
      code: 'rate_limited',
      providerCode: '429',
      detail: 'slow down',
      retryAfterMs: 2000,
    });
  });

  it('sends nothing to an endpoint the address policy refuses', async () => {
    const subscription = push.subscribe(vapid.publicKey);
    refused.push(subscription.endpoint);
    const before = push.server.requests.length;
    await expect(adapter.send(channel, messageFor(subscription))).resolves.toMatchObject({
      code: 'invalid_recipient',
      detail: 'push endpoint not allowed: the address is private',
    });
    expect(push.server.requests).toHaveLength(before);
  });

  it('sends nothing when the address the endpoint connects to is refused, though a lookup before let it pass', async () => {
    // The service's dispatcher checks the address it connects to (a name can resolve elsewhere between
    // the adapter's check and the call): here every address passes the first check and none the second.
    const guarded = new Agent({
      connect: guardedConnector({ policy: new AddressPolicy(), connectTimeoutMs: 3000, ca: tls.ca }),
    });
    try {
      const strict = new WebPushAdapter(() => undefined, { dispatcher: guarded, timeoutMs: 3000 });
      const subscription = push.subscribe(vapid.publicKey);
      const before = push.server.requests.length;
      await expect(strict.send(channel, messageFor(subscription))).resolves.toMatchObject({
        code: 'invalid_recipient',
        detail: expect.stringContaining('the address is not allowed'),
      });
      expect(push.server.requests).toHaveLength(before);
    } finally {
      await guarded.close();
    }
  });

  it('fails a contact without a subscription, and refuses VAPID keys that are not keys', async () => {
    await expect(adapter.send(channel, messageFor(undefined))).resolves.toMatchObject({
      code: 'subscription_expired',
    });
    const broken = { ...channel, credentials: { ...channel.credentials, vapid_private_key: 'short' } };
    await expect(adapter.send(broken, messageFor(push.subscribe(vapid.publicKey)))).resolves.toMatchObject({
      code: 'channel_misconfigured',
    });
  });
});
