import type { ChannelConnection, OutboundMessage } from '../src/providers/provider';
import { TelegramAdapter } from '../src/providers/telegram/telegram.adapter';
import { FakeTelegram, telegramErrorReply } from './fakes';

const channel: ChannelConnection = {
  id: 'ch_tg',
  type: 'telegram',
  provider: 'telegram',
  credentials: { bot_token: '123456:ABC-DEF', secret_token: 'tg_secret-1' },
  metadata: {},
};
const message: OutboundMessage = {
  messageId: 'msg_000000000000000000000003',
  channelType: 'telegram',
  recipient: '987654321',
  body: 'Hello from the shop',
  callbackUrl: 'https://cms.example/webhook/provider/tok_tg',
};

describe('Telegram adapter against the fake Bot API', () => {
  const fake = new FakeTelegram();
  let adapter: TelegramAdapter;

  beforeAll(async () => {
    await fake.server.start();
    fake.addBot('123456:ABC-DEF');
    fake.blockedBy('111');
    fake.unknownChat('222');
    adapter = new TelegramAdapter(fake.server.baseUrl, { timeoutMs: 2000 });
  });

  afterAll(async () => {
    await fake.server.close();
  });

  it('sends the text to the chat and answers chat:message as the provider message id', async () => {
    const result = await adapter.send(channel, message);
    expect(result).toEqual({ outcome: 'sent', providerMessageId: expect.stringMatching(/^987654321:\d+$/) });
    expect(fake.sentMessages()).toEqual([{ chat_id: '987654321', text: 'Hello from the shop' }]);
  });

  it('maps a blocked bot, an unknown chat and a wrong token', async () => {
    await expect(adapter.send(channel, { ...message, recipient: '111' })).resolves.toEqual({
      outcome: 'failed',
      code: 'blocked_by_recipient',
      providerCode: '403',
      detail: 'Forbidden: bot was blocked by the user',
    });
    await expect(adapter.send(channel, { ...message, recipient: '222' })).resolves.toMatchObject({
      code: 'not_on_channel',
      providerCode: '400',
    });
    const wrong = { ...channel, credentials: { ...channel.credentials, bot_token: '123456:WRONG' } };
    await expect(adapter.send(wrong, message)).resolves.toMatchObject({
      code: 'channel_misconfigured',
      providerCode: '401',
    });
  });

  it('answers rate_limited with retry_after from the answer', async () => {
    fake.server.failNext(1, telegramErrorReply(429, 'Too Many Requests: retry after 3', 3));
    await expect(adapter.send(channel, message)).resolves.toEqual({
      outcome: 'failed',
      code: 'rate_limited',
      providerCode: '429',
      detail: 'Too Many Requests: retry after 3',
      retryAfterMs: 3000,
    });
  });

  it("points the bot's webhook at the callback URL with the channel's secret token", async () => {
    await expect(adapter.registerWebhook(channel, message.callbackUrl)).resolves.toEqual({ ok: true });
    expect(fake.webhooks.get('123456:ABC-DEF')).toEqual({
      url: message.callbackUrl,
      secretToken: 'tg_secret-1',
    });
  });
});
