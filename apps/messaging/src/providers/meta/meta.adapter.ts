import { createHmac } from 'node:crypto';

import {
  credential,
  type CallbackEvent,
  type CallbackRequest,
  type CallbackVerdict,
  type ChannelConnection,
  type OutboundMessage,
  type ProviderAdapter,
  type SendResult,
} from '../provider';
import {
  callProvider,
  failed,
  field,
  isFailure,
  listField,
  retryAfterMs,
  safeEqual,
  textField,
  type ProviderHttpOptions,
} from '../provider-http';
import { parseMetaNotification } from './meta-callbacks';
import { metaFailureCode } from './meta-codes';

export const GRAPH_API_VERSION = 'v21.0';

/** X-Hub-Signature-256: `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the app secret. */
export function metaSignature(appSecret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

function whatsappBody(message: OutboundMessage): object {
  const template = message.providerTemplate;
  const content =
    template !== undefined
      ? {
          type: 'template',
          template: {
            name: template.name,
            language: { code: template.language },
            components:
              template.parameters.length > 0
                ? [{ type: 'body', parameters: template.parameters.map((text) => ({ type: 'text', text })) }]
                : [],
          },
        }
      : { type: 'text', text: { preview_url: false, body: message.body } };
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to: message.recipient, ...content };
}

/**
 * The Graph API send call for a message: the sending account (the WhatsApp phone number id, the
 * Instagram account id, or the Facebook page id) and the JSON body.
 */
function sendCall(channel: ChannelConnection, message: OutboundMessage): { account: string; body: object } {
  if (channel.type === 'whatsapp') {
    return { account: credential(channel, 'phone_number_id'), body: whatsappBody(message) };
  }
  const recipient = { id: message.recipient };
  if (channel.type === 'instagram') {
    return {
      account: credential(channel, 'instagram_account_id'),
      body: { recipient, message: { text: message.body } },
    };
  }
  return {
    account: credential(channel, 'page_id'),
    body: { recipient, messaging_type: 'UPDATE', message: { text: message.body } },
  };
}

/** WhatsApp Cloud API, Messenger Send API and Instagram messaging, all through the Graph API. */
export class MetaAdapter implements ProviderAdapter {
  readonly provider = 'meta' as const;

  constructor(
    private readonly baseUrl: string,
    private readonly http: ProviderHttpOptions = {},
  ) {}

  async send(channel: ChannelConnection, message: OutboundMessage): Promise<SendResult> {
    const { account, body } = sendCall(channel, message);
    const answer = await callProvider(
      `${this.baseUrl}/${GRAPH_API_VERSION}/${encodeURIComponent(account)}/messages`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${credential(channel, 'access_token')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      },
      this.http,
    );
    if (isFailure(answer)) return answer;
    const id = textField(listField(answer.json, 'messages')[0], 'id') ?? textField(answer.json, 'message_id');
    if (answer.status >= 200 && answer.status < 300 && id !== undefined) {
      return { outcome: 'sent', providerMessageId: id };
    }
    const error = field(answer.json, 'error');
    const code = textField(error, 'code');
    const subcode = textField(error, 'error_subcode');
    const failure = metaFailureCode(code, subcode, answer.status);
    return failed(
      failure,
      code ?? String(answer.status),
      textField(error, 'message') ?? `the Graph API answered ${answer.status}`,
      failure === 'rate_limited' ? retryAfterMs(answer.headers['retry-after']) : undefined,
    );
  }

  verifyCallback(channel: ChannelConnection, request: CallbackRequest): CallbackVerdict {
    if (request.method.toUpperCase() === 'GET') {
      const { query } = request;
      const matches =
        query['hub.mode'] === 'subscribe' &&
        safeEqual(query['hub.verify_token'], credential(channel, 'verify_token'));
      return matches && query['hub.challenge'] !== undefined
        ? { handshake: query['hub.challenge'] }
        : { ok: false, status: 403, reason: 'hub.verify_token does not match the channel' };
    }
    const presented = request.headers['x-hub-signature-256'];
    if (presented === undefined) return { ok: false, status: 401, reason: 'X-Hub-Signature-256 is missing' };
    return safeEqual(presented, metaSignature(credential(channel, 'app_secret'), request.body))
      ? { ok: true }
      : { ok: false, status: 401, reason: 'X-Hub-Signature-256 does not match' };
  }

  parseCallback(
    _channel: Pick<ChannelConnection, 'type'>,
    request: { contentType: string; body: Buffer },
  ): CallbackEvent[] {
    try {
      return parseMetaNotification(JSON.parse(request.body.toString('utf8')));
    } catch {
      return [];
    }
  }
}
