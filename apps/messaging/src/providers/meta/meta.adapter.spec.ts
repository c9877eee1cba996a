import type { CallbackRequest, ChannelConnection } from '../provider';
import { metaFailureCode } from './meta-codes';
import { metaSignature, MetaAdapter } from './meta.adapter';

const channel: ChannelConnection = {
  id: 'ch_2',
  type: 'whatsapp',
  provider: 'meta',
  credentials: {
    access_token: 'EAAG',
    app_secret: 'app-secret',
    verify_token: 'verify-me',
    phone_number_id: '1055',
  },
  metadata: {},
};
const adapter = new MetaAdapter('http://127.0.0.1:9');

function post(body: string, headers: Record<string, string>): CallbackRequest {
  return {
    method: 'POST',
    query: {},
    headers,
    body: Buffer.from(body),
    url: 'https://cms.example/webhook/provider/t',
  };
}

function handshake(query: Record<string, string>): CallbackRequest {
  return {
    method: 'GET',
    query,
    headers: {},
    body: Buffer.alloc(0),
    url: 'https://cms.example/webhook/provider/t',
  };
}

const parse = (body: unknown) =>
  adapter.parseCallback(channel, {
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify(body)),
  });

describe('Meta Graph API', () => {
  it('accepts a notification signed with the app secret over the raw body, and refuses others', () => {
    const body = '{"object":"whatsapp_business_account","entry":[]}';
    const good = metaSignature('app-secret', body);
    expect(good).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(adapter.verifyCallback(channel, post(body, { 'x-hub-signature-256': good }))).toEqual({
      ok: true,
    });
    expect(adapter.verifyCallback(channel, post(`${body} `, { 'x-hub-signature-256': good }))).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(
      adapter.verifyCallback(channel, post(body, { 'x-hub-signature-256': metaSignature('other', body) })),
    ).toMatchObject({ ok: false, status: 401 });
    expect(adapter.verifyCallback(channel, post(body, {}))).toMatchObject({ ok: false, status: 401 });
  });

  it('answers the subscription handshake with the challenge only for the verify token', () => {
    const query = { 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me', 'hub.challenge': '1158201444' };
    expect(adapter.verifyCallback(channel, handshake(query))).toEqual({ handshake: '1158201444' });
    expect(
      adapter.verifyCallback(channel, handshake({ ...query, 'hub.verify_token': 'nope' })),
    ).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(adapter.verifyCallback(channel, handshake({ ...query, 'hub.mode': 'unsubscribe' }))).toMatchObject(
      {
        ok: false,
        status: 403,
      },
    );
  });

  it('reads WhatsApp statuses and incoming messages', () => {
    const events = parse({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WABA',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550001111', phone_number_id: '1055' },
                statuses: [
                  {
                    id: 'wamid.A',
                    status: 'delivered',
                    timestamp: '1700000000',
                    recipient_id: '15551234567',
                  },
                  {
                    id: 'wamid.B',
                    status: 'failed',
                    timestamp: '1700000001',
                    recipient_id: '15551234567',
                    errors: [{ code: 131047, title: 'Re-engagement message' }],
                  },
                ],
                messages: [
                  {
                    from: '15551234567',
                    id: 'wamid.C',
                    timestamp: '1700000002',
                    type: 'text',
                    text: { body: 'hi' },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    expect(events).toEqual([
      { kind: 'status', providerMessageId: 'wamid.A', status: 'delivered', at: '2023-11-14T22:13:20.000Z' },
      {
        kind: 'status',
        providerMessageId: 'wamid.B',
        status: 'failed',
        at: '2023-11-14T22:13:21.000Z',
        failure: { code: 'outside_window', providerCode: '131047' },
      },
      {
        kind: 'inbound',
        from: '15551234567',
        text: 'hi',
        providerMessageId: 'wamid.C',
        at: '2023-11-14T22:13:22.000Z',
      },
    ]);
  });

  it('reads Messenger and Instagram messages, deliveries and reads, and skips echoes', () => {
    const events = parse({
      object: 'page',
      entry: [
        {
          id: 'PAGE',
          time: 1700000000000,
          messaging: [
            {
              sender: { id: 'PSID1' },
              recipient: { id: 'PAGE' },
              timestamp: 1700000000000,
              message: { mid: 'm_1', text: 'yo' },
            },
            {
              sender: { id: 'PAGE' },
              recipient: { id: 'PSID1' },
              timestamp: 1700000000000,
              message: { mid: 'm_2', text: 'echo', is_echo: true },
            },
            {
              sender: { id: 'PSID1' },
              recipient: { id: 'PAGE' },
              timestamp: 1700000000000,
              delivery: { mids: ['m_3', 'm_4'], watermark: 1 },
            },
            {
              sender: { id: 'PSID1' },
              recipient: { id: 'PAGE' },
              timestamp: 1700000000000,
              read: { mid: 'm_3' },
            },
            {
              sender: { id: 'PSID1' },
              recipient: { id: 'PAGE' },
              timestamp: 1700000000000,
              read: { watermark: 1700000000000 },
            },
          ],
        },
      ],
    });
    const at = '2023-11-14T22:13:20.000Z';
    expect(events).toEqual([
      { kind: 'inbound', from: 'PSID1', text: 'yo', providerMessageId: 'm_1', at },
      { kind: 'status', providerMessageId: 'm_3', status: 'delivered', at },
      { kind: 'status', providerMessageId: 'm_4', status: 'delivered', at },
      { kind: 'status', providerMessageId: 'm_3', status: 'read', at },
    ]);
  });

  it('reads nothing from a body that is not a notification', () => {
    expect(
      adapter.parseCallback(channel, { contentType: 'application/json', body: Buffer.from('nope') }),
    ).toEqual([]);
    expect(parse({ entry: 'x' })).toEqual([]);
  });

  it.each([
    ['131026', undefined, 400, 'not_on_channel'],
    ['131047', undefined, 400, 'outside_window'],
    ['131050', undefined, 400, 'opted_out'],
    ['130429', undefined, 400, 'rate_limited'],
    ['80007', undefined, 400, 'rate_limited'],
    ['4', undefined, 400, 'rate_limited'],
    ['190', undefined, 401, 'channel_misconfigured'],
    ['131000', undefined, 500, 'provider_unavailable'],
    [undefined, undefined, 503, 'provider_unavailable'],
    ['10', '2018278', 400, 'outside_window'],
    ['100', undefined, 400, 'provider_error'],
  ])('maps Graph code %s (subcode %s, HTTP %s) to %s', (code, subcode, status, expected) => {
    expect(metaFailureCode(code, subcode, status)).toBe(expected);
  });
});
