import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type {
  CallbackEvent,
  CallbackRequest,
  ChannelConnection,
  ProviderAdapter,
} from '../src/providers/provider';
import { ProviderAdapters } from '../src/providers/provider-adapters';
import { PUBLIC_PROVIDER_BASE_URLS } from '../src/providers/provider-base-urls';
import {
  deliverCallback,
  messagingNotification,
  metaCallback,
  metaHandshake,
  telegramCallback,
  telegramMessageUpdate,
  twilioCallback,
  whatsappMessageNotification,
  whatsappStatusNotification,
} from './fakes';

const channels: Record<string, ChannelConnection> = {
  tok_sms: {
    id: 'ch_sms',
    type: 'sms',
    provider: 'twilio',
    credentials: { account_sid: 'AC1', auth_token: 'twilio-token', from: '+15550000000' },
    metadata: {},
  },
  tok_wa: {
    id: 'ch_wa',
    type: 'whatsapp',
    provider: 'meta',
    credentials: {
      access_token: 'EAAG',
      app_secret: 'meta-app-secret',
      verify_token: 'verify-me',
      phone_number_id: '1055',
    },
    metadata: {},
  },
  tok_ig: {
    id: 'ch_ig',
    type: 'instagram',
    provider: 'meta',
    credentials: {
      access_token: 'EAAG',
      app_secret: 'meta-app-secret',
      verify_token: 'verify-me',
      instagram_account_id: '1784',
    },
    metadata: {},
  },
  tok_tg: {
    id: 'ch_tg',
    type: 'telegram',
    provider: 'telegram',
    credentials: { bot_token: '1:A', secret_token: 'tg-secret' },
    metadata: {},
  },
};

/**
 * What `/webhook/provider/<token>` does with a provider's request: the channel by its token, the
 * adapter's verdict on the raw request, and (verified) the events read from the body.
 */
class CallbackEndpoint {
  readonly events: CallbackEvent[] = [];
  private server!: Server;
  baseUrl = '';

  constructor(private readonly adapters: ProviderAdapters) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', this.baseUrl);
        const channel = channels[url.pathname.split('/').pop() ?? ''];
        if (channel === undefined) {
          res.writeHead(404).end();
          return;
        }
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (typeof value === 'string') headers[name] = value;
        }
        const callback: CallbackRequest = {
          method: req.method ?? 'GET',
          query: Object.fromEntries(url.searchParams),
          headers,
          body: Buffer.concat(chunks),
          url: url.toString(),
        };
        const adapter: ProviderAdapter = this.adapters.of(channel.provider);
        const verdict = adapter.verifyCallback(channel, callback);
        if ('handshake' in verdict) {
          res.writeHead(200, { 'content-type': 'text/plain' }).end(verdict.handshake);
        } else if (!verdict.ok) {
          res.writeHead(verdict.status).end(verdict.reason);
        } else {
          this.events.push(
            ...adapter.parseCallback(channel, {
              contentType: headers['content-type'] ?? '',
              body: callback.body,
            }),
          );
          res.writeHead(200).end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  url(token: string): string {
    return `${this.baseUrl}/webhook/provider/${token}`;
  }

  take(): CallbackEvent[] {
    return this.events.splice(0);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('provider callbacks, signed and sent as the providers send them', () => {
  const endpoint = new CallbackEndpoint(
    new ProviderAdapters({ baseUrls: PUBLIC_PROVIDER_BASE_URLS, assertPublicEndpoint: () => undefined }),
  );

  beforeAll(async () => {
    await endpoint.start();
  });

  afterAll(async () => {
    await endpoint.close();
  });

  it('Twilio: a signed status callback is read; a wrong or missing signature is refused with 401', async () => {
    const params = {
      MessageSid: 'SM123',
      MessageStatus: 'undelivered',
      ErrorCode: '30003',
      To: '+15551234567',
    };
    const signed = twilioCallback(endpoint.url('tok_sms'), 'twilio-token', params);
    await expect(deliverCallback(signed)).resolves.toMatchObject({ status: 200 });
    expect(endpoint.take()).toEqual([
      {
        kind: 'status',
        providerMessageId: 'SM123',
        status: 'failed',
        failure: { code: 'unreachable', providerCode: '30003' },
      },
    ]);
    const forged = twilioCallback(endpoint.url('tok_sms'), 'guessed-token', params);
    await expect(deliverCallback(forged)).resolves.toMatchObject({ status: 401 });
    const { 'x-twilio-signature': _dropped, ...unsigned } = signed.headers;
    await expect(deliverCallback({ ...signed, headers: unsigned })).resolves.toMatchObject({ status: 401 });
    expect(endpoint.take()).toEqual([]);
  });

  it('Twilio: an incoming SMS is read', async () => {
    const signed = twilioCallback(endpoint.url('tok_sms'), 'twilio-token', {
      MessageSid: 'SM9',
      SmsStatus: 'received',
      From: '+15551234567',
      To: '+15550000000',
      Body: 'When do you open?',
    });
    await expect(deliverCallback(signed)).resolves.toMatchObject({ status: 200 });
    expect(endpoint.take()).toEqual([
      { kind: 'inbound', from: '+15551234567', text: 'When do you open?', providerMessageId: 'SM9' },
    ]);
  });

  it('Meta: the handshake answers the challenge for the verify token only', async () => {
    await expect(
      deliverCallback(metaHandshake(endpoint.url('tok_wa'), 'verify-me', '8817')),
    ).resolves.toEqual({
      status: 200,
      body: '8817',
    });
    await expect(
      deliverCallback(metaHandshake(endpoint.url('tok_wa'), 'guess', '8817')),
    ).resolves.toMatchObject({
      status: 403,
    });
  });

  it('Meta: signed WhatsApp statuses and messages are read; a body changed after signing is refused', async () => {
    const at = new Date('2026-03-01T10:00:00Z');
    const status = whatsappStatusNotification('1055', {
      id: 'wamid.X',
      status: 'failed',
      errorCode: 131026,
      at,
    });
    await expect(
      deliverCallback(metaCallback(endpoint.url('tok_wa'), 'meta-app-secret', status)),
    ).resolves.toMatchObject({
      status: 200,
    });
    const inbound = whatsappMessageNotification('1055', {
      from: '15551234567',
      text: 'hi',
      id: 'wamid.Y',
      at,
    });
    await expect(
      deliverCallback(metaCallback(endpoint.url('tok_wa'), 'meta-app-secret', inbound)),
    ).resolves.toMatchObject({
      status: 200,
    });
    expect(endpoint.take()).toEqual([
      {
        kind: 'status',
        providerMessageId: 'wamid.X',
        status: 'failed',
        at: '2026-03-01T10:00:00.000Z',
        failure: { code: 'not_on_channel', providerCode: '131026' },
      },
      {
        kind: 'inbound',
        from: '15551234567',
        text: 'hi',
        providerMessageId: 'wamid.Y',
        at: '2026-03-01T10:00:00.000Z',
      },
    ]);
    const signed = metaCallback(endpoint.url('tok_wa'), 'meta-app-secret', status);
    await expect(
      deliverCallback({ ...signed, body: signed.body.replace('failed', 'read') }),
    ).resolves.toMatchObject({
      status: 401,
    });
    expect(endpoint.take()).toEqual([]);
  });

  it('Meta: Instagram messages, deliveries and reads are read', async () => {
    const notification = messagingNotification('instagram', '1784', [
      { kind: 'message', sender: 'IGSID1', mid: 'aWdfZA1', text: 'price?' },
      { kind: 'delivery', sender: 'IGSID1', mids: ['aWdfZA2'] },
      { kind: 'read', sender: 'IGSID1', mid: 'aWdfZA2' },
    ]);
    await expect(
      deliverCallback(metaCallback(endpoint.url('tok_ig'), 'meta-app-secret', notification)),
    ).resolves.toMatchObject({
      status: 200,
    });
    expect(endpoint.take().map((event) => ({ ...event, at: undefined }))).toEqual([
      { kind: 'inbound', from: 'IGSID1', text: 'price?', providerMessageId: 'aWdfZA1', at: undefined },
      { kind: 'status', providerMessageId: 'aWdfZA2', status: 'delivered', at: undefined },
      { kind: 'status', providerMessageId: 'aWdfZA2', status: 'read', at: undefined },
    ]);
  });

  it('Telegram: an update with the secret token is read; another token is refused', async () => {
    const update = telegramMessageUpdate(4242, 'STOP', 17, new Date('2026-03-01T10:00:00Z'));
    await expect(
      deliverCallback(telegramCallback(endpoint.url('tok_tg'), 'tg-secret', update)),
    ).resolves.toMatchObject({
      status: 200,
    });
    expect(endpoint.take()).toEqual([
      {
        kind: 'inbound',
        from: '4242',
        text: 'STOP',
        providerMessageId: '4242:17',
        at: '2026-03-01T10:00:00.000Z',
      },
    ]);
    await expect(
      deliverCallback(telegramCallback(endpoint.url('tok_tg'), 'tg-guess', update)),
    ).resolves.toMatchObject({
      status: 401,
    });
  });

  it('answers 404 for a token of no channel', async () => {
    await expect(
      deliverCallback(
        telegramCallback(endpoint.url('tok_unknown'), 'tg-secret', telegramMessageUpdate(1, 'x', 1)),
      ),
    ).resolves.toMatchObject({ status: 404 });
  });
});
