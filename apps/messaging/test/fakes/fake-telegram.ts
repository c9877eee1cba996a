import { FakeHttpServer, jsonBody, type FakeReply, type RecordedRequest } from './fake-http-server';

export function telegramErrorReply(errorCode: number, description: string, retryAfter?: number): FakeReply {
  return {
    status: errorCode,
    body: {
      ok: false,
      error_code: errorCode,
      description,
      ...(retryAfter !== undefined ? { parameters: { retry_after: retryAfter } } : {}),
    },
  };
}

const METHOD_PATH = /^\/bot([^/]+)\/([A-Za-z]+)$/;

/** Telegram's Bot API: `sendMessage` and `setWebhook`, the bot's token in the path. */
export class FakeTelegram {
  readonly server = new FakeHttpServer((request) => this.handle(request));
  private readonly bots = new Set<string>();
  private readonly chatErrors = new Map<string, FakeReply>();
  /** The webhook each bot was given (url and secret_token). */
  readonly webhooks = new Map<string, { url: string; secretToken: string | undefined }>();
  private nextMessageId = 1;

  addBot(token: string): void {
    this.bots.add(token);
  }

  /** The user of `chatId` blocked the bot. */
  blockedBy(chatId: string): void {
    this.chatErrors.set(chatId, telegramErrorReply(403, 'Forbidden: bot was blocked by the user'));
  }

  /** No chat with `chatId` exists for the bot. */
  unknownChat(chatId: string): void {
    this.chatErrors.set(chatId, telegramErrorReply(400, 'Bad Request: chat not found'));
  }

  sentMessages(): unknown[] {
    return this.server.requests
      .filter((request) => METHOD_PATH.exec(request.path)?.[2] === 'sendMessage')
      .map((request) => jsonBody(request));
  }

  private handle(request: RecordedRequest): FakeReply {
    const match = METHOD_PATH.exec(request.path);
    if (match === null || !this.bots.has(match[1]!)) return telegramErrorReply(401, 'Unauthorized');
    const body = jsonBody(request) as Record<string, unknown> | undefined;
    switch (match[2]) {
      case 'sendMessage':
        return this.sendMessage(body);
      case 'setWebhook': {
        const url = body?.['url'];
        if (typeof url !== 'string' || !url.startsWith('https://')) {
          return telegramErrorReply(
            400,
            'Bad Request: bad webhook: An HTTPS URL must be provided for webhook',
          );
        }
        const secret = body?.['secret_token'];
        this.webhooks.set(match[1]!, { url, secretToken: typeof secret === 'string' ? secret : undefined });
        return { status: 200, body: { ok: true, result: true, description: 'Webhook was set' } };
      }
      default:
        return telegramErrorReply(404, 'Not Found');
    }
  }

  private sendMessage(body: Record<string, unknown> | undefined): FakeReply {
    const chatId = body?.['chat_id'];
    if (chatId === undefined || chatId === '')
      return telegramErrorReply(400, 'Bad Request: chat_id is empty');
    const text = body?.['text'];
    if (typeof text !== 'string' || text === '')
      return telegramErrorReply(400, 'Bad Request: message text is empty');
    const refusal = this.chatErrors.get(String(chatId));
    if (refusal !== undefined) return refusal;
    const messageId = this.nextMessageId++;
    return {
      status: 200,
      body: {
        ok: true,
        result: {
          message_id: messageId,
          from: { id: 1, is_bot: true, first_name: 'Bot' },
          chat: { id: Number(chatId), type: 'private' },
          date: Math.floor(Date.now() / 1000),
          text,
        },
      },
    };
  }
}
