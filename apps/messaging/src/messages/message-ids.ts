import { deterministicId } from '@cms/contracts';

function messageId(...parts: Array<string | number>): string {
  return `msg_${deterministicId(...parts).replace(/-/g, '')}`;
}

/** The id of the message a request record makes: the same on every replay of the record. */
export function messageIdOfRecord(recordId: string): string {
  return messageId(recordId, 'message');
}

/** The id of the message that replaces `messageId` when its route moves on to `step`. */
export function fallbackMessageId(messageId_: string, step: number): string {
  return messageId(messageId_, 'fallback', step);
}

/** The sandbox's receipt of `status` for a message: set by one decision, removed by the receipt. */
export function receiptTimerId(messageId_: string, status: string): string {
  return deterministicId(messageId_, 'receipt', status);
}

/** The end of the wait of a message's route step. */
export function timeoutTimerId(messageId_: string, step: number): string {
  return deterministicId(messageId_, 'timeout', step);
}

/** The message a provider's inbound message becomes: one, however often the provider reports it. */
export function inboundMessageId(channelId: number, providerMessageId: string): string {
  return messageId(channelId, 'inbound', providerMessageId);
}
