import {
  credential,
  type CallbackEvent,
  type CallbackRequest,
  type CallbackVerdict,
  type ChannelConnection,
  type FailureCode,
  type OutboundMessage,
  type ProviderAdapter,
  type SendFailure,
  type SendResult,
} from '../provider';
import {
  callProvider,
  failed,
  field,
  isFailure,
  isoFromUnixSeconds,
  retryAfterMs,
  safeEqual,
  textField,
  type ProviderHttpOptions,
} from '../provider-http';

/** Our code for a Bot API refusal (`error_code` and `description`). */
export function telegramFailureCode(errorCode: number, description: string): FailureCode {
  if (errorCode === 403) return 'blocked_by_recipient';
  if (errorCode === 429) return 'rate_limited';
  if (errorCode === 401 || errorCode === 404) return 'channel_misconfigured';
  if (errorCode === 400 && /chat not found|user not found|peer_id_invalid/i.test(description)) {
    return 'not_on_channel';
  }
  if (errorCode >= 500) return 'provider_unavailable';
  return 'provider_error';
}

/** Telegram's Bot API: `sendMessage`, updates pushed to the webhook with the channel's secret token. */
export class TelegramAdapter implements ProviderAdapter {
  readonly provider = 'telegram' as const;

  constructor(
    private readonly baseUrl: string,
    private readonly http: ProviderHttpOptions = {},
  ) {}

  async send(channel: ChannelConnection, message: OutboundMessage): Promise<SendResult> {
    const answer = await this.call(channel, 'sendMessage', {
      chat_id: message.recipient,
      text: message.body,
    });
    if (isFailure(answer)) return answer;
    const messageId = textField(answer.result, 'message_id');
    if (answer.ok && messageId !== undefined) {
      return { outcome: 'sent', providerMessageId: `${message.recipient}:${messageId}` };
    }
    const failure = telegramFailureCode(answer.errorCode, answer.description);
    const retryAfter = field(answer.parameters, 'retry_after');
    return failed(
      failure,
      answer.errorCode,
      answer.description,
      failure === 'rate_limited'
        ? retryAfterMs(typeof retryAfter === 'number' ? retryAfter : undefined)
        : undefined,
    );
  }

  /**
   * Points the bot's updates at the channel's callback URL, with the secret token Telegram then sends
   * in X-Telegram-Bot-Api-Secret-Token on every update.
   */
  async registerWebhook(
    channel: ChannelConnection,
    callbackUrl: string,
  ): Promise<{ ok: true } | SendFailure> {
    const answer = await this.call(channel, 'setWebhook', {
      url: callbackUrl,
      secret_token: credential(channel, 'secret_token'),
      allowed_updates: ['message'],
    });
    if (isFailure(answer)) return answer;
    return answer.ok
      ? { ok: true }
      : failed(
          telegramFailureCode(answer.errorCode, answer.description),
          answer.errorCode,
          answer.description,
        );
  }

  verifyCallback(channel: ChannelConnection, request: CallbackRequest): CallbackVerdict {
    const presented = request.headers['x-telegram-bot-api-secret-token'];
    if (presented === undefined) {
      return { ok: false, status: 401, reason: 'X-Telegram-Bot-Api-Secret-Token is missing' };
    }
    return safeEqual(presented, credential(channel, 'secret_token'))
      ? { ok: true }
      : { ok: false, status: 401, reason: 'X-Telegram-Bot-Api-Secret-Token does not match' };
  }

  parseCallback(
    _channel: Pick<ChannelConnection, 'type'>,
    request: { contentType: string; body: Buffer },
  ): CallbackEvent[] {
    let update: unknown;
    try {
      update = JSON.parse(request.body.toString('utf8'));
    } catch {
      return [];
    }
    const message = field(update, 'message');
    const chatId = textField(field(message, 'chat'), 'id');
    const messageId = textField(message, 'message_id');
    if (chatId === undefined || messageId === undefined) return [];
    const at = isoFromUnixSeconds(field(message, 'date'));
    return [
      {
        kind: 'inbound',
        from: chatId,
        text: textField(message, 'text') ?? textField(message, 'caption') ?? '',
        providerMessageId: `${chatId}:${messageId}`,
        ...(at !== undefined ? { at } : {}),
      },
    ];
  }

  private async call(
    channel: ChannelConnection,
    method: string,
    body: object,
  ): Promise<
    | { ok: boolean; result: unknown; errorCode: number; description: string; parameters: unknown }
    | SendFailure
  > {
    const answer = await callProvider(
      `${this.baseUrl}/bot${credential(channel, 'bot_token')}/${method}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      this.http,
    );
    if (isFailure(answer)) return answer;
    const ok = field(answer.json, 'ok') === true && answer.status === 200;
    const errorCode = Number(textField(answer.json, 'error_code') ?? answer.status);
    return {
      ok,
      result: field(answer.json, 'result'),
      errorCode,
      description: textField(answer.json, 'description') ?? `the Bot API answered ${answer.status}`,
      parameters: field(answer.json, 'parameters'),
    };
  }
}
