import { FALLBACK_FAILURE_CODES, type SuppressionListReason } from '@cms/contracts';

import type { MessageEntity } from './message.entity';

/** The stages of an outbound message in their order; each may only be followed by a later one. */
const STAGE_RANK: Readonly<Record<string, number>> = { queued: 0, sent: 1, delivered: 2, read: 3 };

/** Statuses after which nothing moves: the message failed, was suppressed, or came in. */
const TERMINAL = new Set(['failed', 'suppressed', 'received']);

/**
 * Whether a message at `current` moves to `next` (extensions §9, Statuses): forward along
 * queued → sent → delivered → read; `failed` from queued or sent (a provider may refuse after it
 * accepted); `suppressed` only before sending. Anything else is late and is kept in history only.
 */
export function movesForward(current: string, next: string): boolean {
  if (TERMINAL.has(current)) return false;
  if (next === 'failed') return current === 'queued' || current === 'sent';
  if (next === 'suppressed') return current === 'queued';
  const from = STAGE_RANK[current];
  const to = STAGE_RANK[next];
  return from !== undefined && to !== undefined && to > from;
}

/** Whether a message at `status` has reached the stage its route step waits for. */
export function reached(status: string, waitFor: string): boolean {
  const at = STAGE_RANK[status];
  const wanted = STAGE_RANK[waitFor];
  return at !== undefined && wanted !== undefined && at >= wanted;
}

/** Whether a failure or suppression moves the route on to its next step. */
export function fallsBack(outcome: {
  failureCode?: string | null;
  suppressionReason?: string | null;
}): boolean {
  if (outcome.failureCode) return (FALLBACK_FAILURE_CODES as readonly string[]).includes(outcome.failureCode);
  return outcome.suppressionReason === 'no_recipient';
}

/** Failures the provider reports for an address that must not be messaged again on that channel. */
const SUPPRESSING_FAILURES: Readonly<Record<string, SuppressionListReason>> = {
  opted_out: 'opted_out',
  bounced: 'bounced',
  spam_complaint: 'spam_complaint',
};

/** The suppression list reason a provider's failure adds its address with, if any. */
export function suppressionReasonOf(failureCode: string): SuppressionListReason | undefined {
  return SUPPRESSING_FAILURES[failureCode];
}

/** The column a stage stamps its time in. */
export function stampedColumn(
  status: string,
): keyof Pick<MessageEntity, 'sentAt' | 'deliveredAt' | 'readAt' | 'failedAt'> | undefined {
  switch (status) {
    case 'sent':
      return 'sentAt';
    case 'delivered':
      return 'deliveredAt';
    case 'read':
      return 'readAt';
    case 'failed':
      return 'failedAt';
    default:
      return undefined;
  }
}
