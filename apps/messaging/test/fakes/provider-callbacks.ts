import { request } from 'undici';

import { metaSignature } from '../../src/providers/meta/meta.adapter';
import { twilioSignature } from '../../src/providers/twilio/twilio-signature';

/** A callback as a provider sends it to a channel's callback URL, signed as that provider signs. */
export interface ProviderCallback {
  method: 'GET' | 'POST';
  /** The callback URL, with the query of a GET. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A Twilio status callback or incoming message (form-encoded, X-Twilio-Signature). */
export function twilioCallback(
  url: string,
  authToken: string,
  params: Record<string, string>,
): ProviderCallback {
  const form = new URLSearchParams(params);
  return {
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(authToken, url, form),
    },
    body: form.toString(),
  };
}

/** A Graph API webhook notification (JSON, X-Hub-Signature-256). */
export function metaCallback(url: string, appSecret: string, notification: object): ProviderCallback {
  const body = JSON.stringify(notification);
  return {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(appSecret, body) },
    body,
  };
}

/** Meta's subscription handshake: a GET with hub.mode, hub.verify_token and hub.challenge. */
export function metaHandshake(url: string, verifyToken: string, challenge: string): ProviderCallback {
  const query = new URLSearchParams({
    'hub.mode': 'subscribe',
    'hub.verify_token': verifyToken,
    'hub.challenge': challenge,
  });
  return { method: 'GET', url: `${url}?${query.toString()}`, headers: {}, body: '' };
}

/** A Telegram update pushed to the bot's webhook (JSON, X-Telegram-Bot-Api-Secret-Token). */
export function telegramCallback(url: string, secretToken: string, update: object): ProviderCallback {
  return {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secretToken },
    body: JSON.stringify(update),
  };
}

/** Sends a callback where it is addressed, as the provider would; answers the status and body. */
export async function deliverCallback(callback: ProviderCallback): Promise<{ status: number; body: string }> {
  const response = await request(callback.url, {
    method: callback.method,
    headers: callback.headers,
    ...(callback.method === 'POST' ? { body: callback.body } : {}),
  });
  return { status: response.statusCode, body: await response.body.text() };
}

// --- documented notification bodies -------------------------------------------------------------

const unixSeconds = (at: Date): string => String(Math.floor(at.getTime() / 1000));

/** A WhatsApp Cloud API status notification (`statuses[]`), with the error code of a failure. */
export function whatsappStatusNotification(
  phoneNumberId: string,
  status: { id: string; status: 'sent' | 'delivered' | 'read' | 'failed'; errorCode?: number; at?: Date },
): object {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'WHATSAPP_BUSINESS_ACCOUNT_ID',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550000000', phone_number_id: phoneNumberId },
              statuses: [
                {
                  id: status.id,
                  status: status.status,
                  timestamp: unixSeconds(status.at ?? new Date()),
                  recipient_id: '15551234567',
                  ...(status.errorCode !== undefined
                    ? { errors: [{ code: status.errorCode, title: `error ${status.errorCode}` }] }
                    : {}),
                },
              ],
            },
          },
        ],
      },
    ],
  };
}

/** A WhatsApp Cloud API incoming text message (`messages[]`). */
export function whatsappMessageNotification(
  phoneNumberId: string,
  message: { from: string; text: string; id: string; at?: Date },
): object {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'WHATSAPP_BUSINESS_ACCOUNT_ID',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550000000', phone_number_id: phoneNumberId },
              contacts: [{ profile: { name: 'Contact' }, wa_id: message.from }],
              messages: [
                {
                  from: message.from,
                  id: message.id,
                  timestamp: unixSeconds(message.at ?? new Date()),
                  type: 'text',
                  text: { body: message.text },
                },
              ],
            },
          },
        ],
      },
    ],
  };
}

/** A Messenger (`object: page`) or Instagram (`object: instagram`) notification of `messaging[]` items. */
export function messagingNotification(
  object: 'page' | 'instagram',
  accountId: string,
  items: (
    | { kind: 'message'; sender: string; mid: string; text: string }
    | { kind: 'delivery'; sender: string; mids: string[] }
    | { kind: 'read'; sender: string; mid: string }
  )[],
): object {
  const timestamp = Date.now();
  return {
    object,
    entry: [
      {
        id: accountId,
        time: timestamp,
        messaging: items.map((item) => {
          const base = { sender: { id: item.sender }, recipient: { id: accountId }, timestamp };
          switch (item.kind) {
            case 'message':
              return { ...base, message: { mid: item.mid, text: item.text } };
            case 'delivery':
              return { ...base, delivery: { mids: item.mids, watermark: timestamp } };
            case 'read':
              return { ...base, read: { mid: item.mid, watermark: timestamp } };
          }
        }),
      },
    ],
  };
}

/** A Telegram Update carrying a private message. */
export function telegramMessageUpdate(
  chatId: number,
  text: string,
  messageId: number,
  at = new Date(),
): object {
  return {
    update_id: messageId + 100_000,
    message: {
      message_id: messageId,
      from: { id: chatId, is_bot: false, first_name: 'Contact' },
      chat: { id: chatId, type: 'private', first_name: 'Contact' },
      date: Math.floor(at.getTime() / 1000),
      text,
    },
  };
}
