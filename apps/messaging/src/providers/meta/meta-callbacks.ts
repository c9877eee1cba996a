import type { CallbackEvent, DeliveryStatus } from '../provider';
import { field, isoFromUnixSeconds, listField, textField } from '../provider-http';
import { metaFailureCode } from './meta-codes';

const WHATSAPP_STATUSES: Record<string, DeliveryStatus> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  failed: 'failed',
};

/** `entry[].changes[].value` of a WhatsApp Business Account notification. */
function whatsappEvents(value: unknown): CallbackEvent[] {
  const events: CallbackEvent[] = [];
  for (const item of listField(value, 'statuses')) {
    const id = textField(item, 'id');
    const status = WHATSAPP_STATUSES[textField(item, 'status') ?? ''];
    if (id === undefined || status === undefined) continue;
    const at = isoFromUnixSeconds(field(item, 'timestamp'));
    const error = listField(item, 'errors')[0];
    const errorCode = textField(error, 'code');
    events.push({
      kind: 'status',
      providerMessageId: id,
      status,
      ...(at !== undefined ? { at } : {}),
      ...(status === 'failed'
        ? { failure: { code: metaFailureCode(errorCode), providerCode: errorCode ?? null } }
        : {}),
    });
  }
  for (const item of listField(value, 'messages')) {
    const from = textField(item, 'from');
    const id = textField(item, 'id');
    if (from === undefined || id === undefined) continue;
    const text =
      textField(field(item, 'text'), 'body') ??
      textField(field(item, 'button'), 'text') ??
      textField(field(field(item, 'interactive'), 'button_reply'), 'title') ??
      '';
    const at = isoFromUnixSeconds(field(item, 'timestamp'));
    events.push({ kind: 'inbound', from, text, providerMessageId: id, ...(at !== undefined ? { at } : {}) });
  }
  return events;
}

/** One `entry[].messaging[]` item of a Messenger or Instagram notification. */
function messagingEvents(item: unknown): CallbackEvent[] {
  const sender = textField(field(item, 'sender'), 'id');
  const timestamp = field(item, 'timestamp');
  const at = typeof timestamp === 'number' ? new Date(timestamp).toISOString() : undefined;
  const when = at !== undefined ? { at } : {};
  const message = field(item, 'message');
  if (message !== undefined) {
    const mid = textField(message, 'mid');
    if (sender === undefined || mid === undefined || field(message, 'is_echo') === true) return [];
    return [
      {
        kind: 'inbound',
        from: sender,
        text: textField(message, 'text') ?? '',
        providerMessageId: mid,
        ...when,
      },
    ];
  }
  const delivery = field(item, 'delivery');
  if (delivery !== undefined) {
    return listField(delivery, 'mids')
      .filter((mid): mid is string => typeof mid === 'string')
      .map((mid) => ({ kind: 'status', providerMessageId: mid, status: 'delivered', ...when }));
  }
  // Messenger reads carry only a watermark (everything before it was read); Instagram's name the message.
  const readMid = textField(field(item, 'read'), 'mid');
  return readMid !== undefined
    ? [{ kind: 'status', providerMessageId: readMid, status: 'read', ...when }]
    : [];
}

/** The events of a Graph API webhook notification (WhatsApp, Messenger, Instagram). */
export function parseMetaNotification(body: unknown): CallbackEvent[] {
  const events: CallbackEvent[] = [];
  for (const entry of listField(body, 'entry')) {
    for (const change of listField(entry, 'changes')) events.push(...whatsappEvents(field(change, 'value')));
    for (const item of listField(entry, 'messaging')) events.push(...messagingEvents(item));
  }
  return events;
}
