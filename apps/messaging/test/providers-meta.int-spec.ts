import { MetaAdapter } from '../src/providers/meta/meta.adapter';
import type { ChannelConnection, OutboundMessage } from '../src/providers/provider';
import { FakeMeta, GRAPH_ERRORS, graphErrorReply } from './fakes';

const secrets = { access_token: 'EAAGtoken', app_secret: 'app-secret', verify_token: 'verify-me' };
const whatsapp: ChannelConnection = {
  id: 'ch_wa',
  type: 'whatsapp',
  provider: 'meta',
  credentials: { ...secrets, phone_number_id: '106540352242922' },
  metadata: {},
};
const messenger: ChannelConnection = {
  id: 'ch_fb',
  type: 'messenger',
  provider: 'meta',
  credentials: { ...secrets, page_id: '1122334455' },
  metadata: {},
};
const instagram: ChannelConnection = {
  id: 'ch_ig',
  type: 'instagram',
  provider: 'meta',
  credentials: { ...secrets, instagram_account_id: '17841400000000000' },
  metadata: {},
};
const message: OutboundMessage = {
  messageId: 'msg_000000000000000000000002',
  channelType: 'whatsapp',
  recipient: '+15551234567',
  body: 'Your order shipped',
  callbackUrl: 'https://cms.example/webhook/provider/tok_wa',
};

describe('Meta adapter against the fake Graph API', () => {
  const fake = new FakeMeta();
  let adapter: MetaAdapter;

  beforeAll(async () => {
    await fake.server.start();
    fake.addWhatsAppNumber('106540352242922', 'EAAGtoken');
    fake.addPage('1122334455', 'EAAGtoken');
    fake.addPage('17841400000000000', 'EAAGtoken');
    fake.refuseRecipients('1026', GRAPH_ERRORS.notOnWhatsApp);
    fake.refuseRecipients('1047', GRAPH_ERRORS.outsideWindow);
    adapter = new MetaAdapter(fake.server.baseUrl, { timeoutMs: 2000 });
  });

  afterAll(async () => {
    await fake.server.close();
  });

  it('sends a WhatsApp text with the Bearer token and answers the wamid', async () => {
    const result = await adapter.send(whatsapp, message);
    expect(result).toEqual({ outcome: 'sent', providerMessageId: expect.stringMatching(/^wamid\./) });
    const sent = fake.sentTo('106540352242922');
    expect(sent[sent.length - 1]).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '+15551234567',
      type: 'text',
      text: { preview_url: false, body: 'Your order shipped' },
    });
  });

  it('sends an approved template with its rendered body parameters', async () => {
    const templated = {
      ...message,
      providerTemplate: { name: 'order_update', language: 'en_US', parameters: ['Ada', '#42'] },
    };
    await expect(adapter.send(whatsapp, templated)).resolves.toMatchObject({ outcome: 'sent' });
    const sent = fake.sentTo('106540352242922');
    expect(sent[sent.length - 1]).toMatchObject({
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ada' },
              { type: 'text', text: '#42' },
            ],
          },
        ],
      },
    });
  });

  it('sends Messenger and Instagram messages to the scoped id through the page or account', async () => {
    await expect(
      adapter.send(messenger, { ...message, channelType: 'messenger', recipient: 'PSID77' }),
    ).resolves.toEqual({
      outcome: 'sent',
      providerMessageId: expect.stringMatching(/^m_/),
    });
    expect(fake.sentTo('1122334455')).toEqual([
      { recipient: { id: 'PSID77' }, messaging_type: 'UPDATE', message: { text: 'Your order shipped' } },
    ]);
    await expect(
      adapter.send(instagram, { ...message, channelType: 'instagram', recipient: 'IGSID9' }),
    ).resolves.toMatchObject({
      outcome: 'sent',
    });
    expect(fake.sentTo('17841400000000000')).toEqual([
      { recipient: { id: 'IGSID9' }, message: { text: 'Your order shipped' } },
    ]);
  });

  it.each([
    ['+15550001026', 'not_on_channel', '131026'],
    ['+15550001047', 'outside_window', '131047'],
  ])('maps the refusal of %s to %s', async (recipient, code, providerCode) => {
    await expect(adapter.send(whatsapp, { ...message, recipient })).resolves.toMatchObject({
      outcome: 'failed',
      code,
      providerCode,
      detail: expect.stringContaining(`#${providerCode}`),
    });
  });

  it('maps a refused access token to channel_misconfigured', async () => {
    const wrong = { ...whatsapp, credentials: { ...whatsapp.credentials, access_token: 'expired' } };
    await expect(adapter.send(wrong, message)).resolves.toMatchObject({
      outcome: 'failed',
      code: 'channel_misconfigured',
      providerCode: '190',
    });
  });

  it('answers rate_limited, then provider_unavailable for an outage, then sends', async () => {
    fake.server.failNext(1, graphErrorReply(GRAPH_ERRORS.rateLimited));
    fake.server.failNext(1, {
      status: 500,
      body: { error: { message: 'An unknown error occurred', type: 'OAuthException', code: 1 } },
    });
    await expect(adapter.send(whatsapp, message)).resolves.toMatchObject({
      code: 'rate_limited',
      providerCode: '130429',
    });
    await expect(adapter.send(whatsapp, message)).resolves.toMatchObject({
      code: 'provider_unavailable',
      providerCode: '1',
    });
    await expect(adapter.send(whatsapp, message)).resolves.toMatchObject({ outcome: 'sent' });
  });
});
