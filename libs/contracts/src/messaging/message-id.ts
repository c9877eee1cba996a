import { deterministicId } from '../envelope/deterministic-id';

/** A message id: `msg_` and the 32 hexadecimal digits of an id derived from `parts`. */
export function derivedMessageId(...parts: Array<string | number>): string {
  return `msg_${deterministicId(...parts).replace(/-/g, '')}`;
}

/**
 * The id of the message a message.send.requested record makes: the same on every replay of the
 * record. A service that appends the request (a workflow's `send` step) knows the id it will have.
 */
export function messageIdOfRecord(recordId: string): string {
  return derivedMessageId(recordId, 'message');
}
