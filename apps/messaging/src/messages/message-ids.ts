import { deterministicId, derivedMessageId as messageId } from '@cms/contracts';

export { messageIdOfRecord } from '@cms/contracts';

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
