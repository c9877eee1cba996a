import type { SendCounts } from './send.entity';

/** A send's message as its facts left it (a send_messages row). */
export interface MessageProgress {
  status: string;
  reachedSent: boolean;
  reachedDelivered: boolean;
  reachedRead: boolean;
  failureCode: string | null;
}

/** What one message adds to its send's counts: `made` and §13's buckets, and its failure's code. */
export interface Contribution extends SendCounts {
  made: number;
  code: string | null;
}

/** The status a message that replaced another through its route's fallback leaves on the one it replaced. */
export const REPLACED = 'replaced';

const NOTHING: Contribution = {
  made: 0,
  queued: 0,
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  suppressed: 0,
  code: null,
};

/** A message made, not yet past `queued`. */
export function queuedMessage(): MessageProgress {
  return {
    status: 'queued',
    reachedSent: false,
    reachedDelivered: false,
    reachedRead: false,
    failureCode: null,
  };
}

/**
 * The message after a fact of `status` (message.<status>): the stages it reached stay reached, so a
 * fact that comes late (a delivery receipt after the read one) takes nothing back.
 */
export function advance(
  message: MessageProgress,
  status: string,
  failureCode: string | null,
): MessageProgress {
  switch (status) {
    case 'sent':
      return { ...message, status: laterOf(message.status, 'sent'), reachedSent: true };
    case 'delivered':
      return {
        ...message,
        status: laterOf(message.status, 'delivered'),
        reachedSent: true,
        reachedDelivered: true,
      };
    case 'read':
      return { ...message, status: 'read', reachedSent: true, reachedDelivered: true, reachedRead: true };
    case 'failed':
      return { ...message, status: 'failed', failureCode: failureCode ?? 'unknown' };
    case 'suppressed':
      return { ...message, status: 'suppressed' };
    default:
      return message;
  }
}

const ORDER = ['queued', 'sent', 'delivered', 'read'];

function laterOf(current: string, next: string): string {
  const at = ORDER.indexOf(current);
  return at === -1 || ORDER.indexOf(next) > at ? next : current;
}

/**
 * By §13: `sent` every message that reached sent (delivered and read ones too), `delivered` those that
 * reached delivered, `read`; `failed` and `suppressed` those that ended so; `queued` the others. A
 * message that failed after it was sent counts as failed and no longer as sent, so that queued + sent
 * + failed + suppressed is always the number made. A message its route's fallback replaced counts for
 * nothing: its member's message is the one that replaced it.
 */
export function contribution(message: MessageProgress | null): Contribution {
  if (message === null || message.status === REPLACED) return NOTHING;
  const failed = message.status === 'failed';
  const suppressed = message.status === 'suppressed';
  const ended = failed || suppressed;
  return {
    made: 1,
    queued: !ended && !message.reachedSent ? 1 : 0,
    sent: !ended && message.reachedSent ? 1 : 0,
    delivered: message.reachedDelivered ? 1 : 0,
    read: message.reachedRead ? 1 : 0,
    failed: failed ? 1 : 0,
    suppressed: suppressed ? 1 : 0,
    code: failed ? message.failureCode : null,
  };
}

/** How a send's counts move when one message goes from `before` to `after`. */
export interface CountsDelta extends SendCounts {
  made: number;
  /** failures_by_code changes, by code. */
  codes: Map<string, number>;
}

export function emptyDelta(): CountsDelta {
  return { made: 0, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, suppressed: 0, codes: new Map() };
}

/** Adds to `delta` what moving one message from `before` to `after` changes. */
export function addChange(
  delta: CountsDelta,
  before: MessageProgress | null,
  after: MessageProgress | null,
): void {
  const from = contribution(before);
  const to = contribution(after);
  for (const key of ['made', 'queued', 'sent', 'delivered', 'read', 'failed', 'suppressed'] as const) {
    delta[key] += to[key] - from[key];
  }
  if (from.code !== null) delta.codes.set(from.code, (delta.codes.get(from.code) ?? 0) - 1);
  if (to.code !== null) delta.codes.set(to.code, (delta.codes.get(to.code) ?? 0) + 1);
}
