/**
 * Why a message failed (extensions §9 "Failure codes"): each code with a `reason` and a `fix` written
 * for the customer who reads `failure` on the message.
 */
export const FAILURE_CODES = {
  invalid_recipient: {
    reason: 'The recipient address is not a valid address for this channel.',
    fix: "Correct the contact's phone number, email address or channel ID, then send again.",
  },
  not_on_channel: {
    reason: 'The recipient does not use this channel (for example, the number has no WhatsApp account).',
    fix: 'Reach the contact on another channel; add a fallback step to the route.',
  },
  landline: {
    reason: 'The number is a landline and cannot receive text messages.',
    fix: 'Use a mobile number for the contact, or reach them on another channel (for example, email).',
  },
  unreachable: {
    reason:
      'The recipient could not be reached: the handset is off, out of coverage or the carrier refused it.',
    fix: 'Try again later, or reach the contact on another channel.',
  },
  opted_out: {
    reason: 'The recipient has opted out of messages from this sender.',
    fix: 'Do not message this contact on this channel until they opt in again (for example, by replying START).',
  },
  blocked_by_recipient: {
    reason: 'The recipient has blocked this sender (for example, blocked the bot).',
    fix: 'The contact must unblock the sender; reach them on another channel meanwhile.',
  },
  outside_window: {
    reason:
      'The recipient has not written in the last 24 hours, so only an approved template message may be sent.',
    fix: 'Send an approved provider template (provider_template), or wait for the contact to write first.',
  },
  template_error: {
    reason: 'The provider refused the template: it is unknown, not approved, or its parameters do not match.',
    fix: "Check the template's name, language and parameters against the template approved at the provider.",
  },
  content_filtered: {
    reason: 'The provider or the carrier filtered the message content as unwanted.',
    fix: "Review the message text (links, wording) and follow the carrier's content rules, then send again.",
  },
  rate_limited: {
    reason: 'The provider refused the message because too many were sent too fast.',
    fix: 'Messages are retried automatically for an hour; send at a lower rate or ask the provider for a higher limit.',
  },
  bounced: {
    reason: "The recipient's mail server refused the message (hard bounce).",
    fix: "Correct the contact's email address; the address was added to the suppression list.",
  },
  spam_complaint: {
    reason: 'The recipient marked a message from this sender as spam.',
    fix: 'Do not email this contact again unless they opt in; the address was added to the suppression list.',
  },
  subscription_expired: {
    reason: "The browser's push subscription has expired or was revoked.",
    fix: 'The contact must subscribe again from their browser; reach them on another channel meanwhile.',
  },
  channel_misconfigured: {
    reason: "The provider refused the channel's credentials or settings.",
    fix: "Check the channel's credentials (keys, tokens, sender) at the provider and update the channel.",
  },
  channel_disabled: {
    reason: 'The channel is disabled, so nothing is sent through it.',
    fix: 'Set the channel status to active, or send through another channel.',
  },
  provider_unavailable: {
    reason: 'The provider could not be reached or had a temporary failure, for an hour of retries.',
    fix: "Check the provider's status page and send the message again.",
  },
  expired: {
    reason: 'The message could not be delivered before it expired.',
    fix: 'Send the message again; if it keeps expiring, reach the contact on another channel.',
  },
  provider_error: {
    reason: 'The provider refused the message for a reason not listed here, or its outcome is unknown.',
    fix: "Look at provider_code in the provider's documentation; contact support if it persists.",
  },
} as const satisfies Record<string, { reason: string; fix: string }>;

export type FailureCode = keyof typeof FAILURE_CODES;

/** Failures that are retried with backoff, for at most an hour, before the message fails. */
export const RETRIED_FAILURE_CODES: readonly FailureCode[] = ['rate_limited', 'provider_unavailable'];

/** Failures that move a route to its next step (extensions §9 "Fallback"). */
export const FALLBACK_FAILURE_CODES: readonly FailureCode[] = [
  'not_on_channel',
  'landline',
  'invalid_recipient',
  'unreachable',
  'outside_window',
  'blocked_by_recipient',
  'subscription_expired',
  'channel_misconfigured',
];

/** A message's `failure` as the API shows it. */
export interface MessageFailure {
  code: FailureCode;
  reason: string;
  fix: string;
  /** The provider's own code, as the provider wrote it; null when it gave none. */
  provider_code: string | null;
}

export function isFailureCode(value: string): value is FailureCode {
  return Object.hasOwn(FAILURE_CODES, value);
}

export function failureOf(code: FailureCode, providerCode: string | number | null = null): MessageFailure {
  const { reason, fix } = FAILURE_CODES[code];
  return { code, reason, fix, provider_code: providerCode === null ? null : String(providerCode) };
}
