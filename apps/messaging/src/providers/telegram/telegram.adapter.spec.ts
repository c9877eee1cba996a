import type { CallbackRequest, ChannelConnection } from '../provider';
import { TelegramAdapter, telegramFailureCode } from './telegram.adapter';

const channel: ChannelConnection = {
  id: 'ch_3',
  type: 'telegram',
  provider: 'telegram',
  credentials: { bot_token: '123:ABC', secret_token: 'tg-secret_1' },
  metadata: {},
};
const adapter = new TelegramAdapter('http://127.0.0.1:9');

function update(headers: Record<string, string>): CallbackRequest {
  return {
    method: 'POST',
    query: {},
    headers,
    body: Buffer.from('{}'),
    url: 'https://cms.example/webhook/provider/t',
  };
}

describe('Telegram Bot API', () => {
  it('accepts an update carrying the secret token, and refuses a wrong or missing one', () => {
    expect(
      adapter.verifyCallback(channel, update({ 'x-telegram-bot-api-secret-token': 'tg-secret_1' })),
    ).toEqual({
      ok: true,
    });
    expect(
      adapter.verifyCallback(channel, update({ 'x-telegram-bot-api-secret-token': 'tg-secret_2' })),
    ).toMatchObject({ ok: false, status: 401 });
    expect(adapter.verifyCallback(channel, update({}))).toMatchObject({ ok: false, status: 401 });
  });

  it('reads an incoming message: the chat id is the sender, the message id is chat and message', () => {
    const body = {
      update_id: 10000,
      message: {
        message_id: 1365,
        from: { id: 1111111, is_bot: false, first_name: 'Ada' },
        chat: { id: 1111111, type: 'private', first_name: 'Ada' },
        date: 1700000000,
        text: '/start',
      },
    };
    expect(
      adapter.parseCallback(channel, {
        contentType: 'application/json',
        body: Buffer.from(JSON.stringify(body)),
      }),
    ).toEqual([
      {
        kind: 'inbound',
        from: '1111111',
        text: '/start',
        providerMessageId: '1111111:1365',
        at: '2023-11-14T22:13:20.000Z',
      },
    ]);
  });

  it('reads nothing from an update without a message', () => {
    const body = JSON.stringify({ update_id: 1, edited_message: { message_id: 1, chat: { id: 2 } } });
    expect(
      adapter.parseCallback(channel, { contentType: 'application/json', body: Buffer.from(body) }),
    ).toEqual([]);
  });

  it.each([
    [403, 'Forbidden: bot was blocked by the user', 'blocked_by_recipient'],
    [400, 'Bad Request: chat not found', 'not_on_channel'],
    [400, 'Bad Request: message text is empty', 'provider_error'],
    [401, 'Unauthorized', 'channel_misconfigured'],
    [404, 'Not Found', 'channel_misconfigured'],
    [429, 'Too Many Requests: retry after 5', 'rate_limited'],
    [502, 'Bad Gateway', 'provider_unavailable'],
  ])('maps error_code %s "%s" to %s', (code, description, expected) => {
    expect(telegramFailureCode(code, description)).toBe(expected);
  });
});
