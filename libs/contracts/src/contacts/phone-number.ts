import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** Digits with the usual separators, an optional leading + (or 00) and nothing else. */
const PHONE_CHARACTERS = /^\+?[\d\s().\-/]+$/;

const E164_CACHE_SIZE = 50_000;
const e164s = new Map<string, string | undefined>();

/**
 * The E.164 form of a phone number sent with its country code ("+44 7700 900123", "0044 7700 900123"
 * and "447700900123" are all +447700900123), or undefined when it is not a possible number. Numbers
 * without a country code are not guessed at: the specification asks callers to include it. The one
 * reading of a phone every service shares: contacts stores it, messaging matches and suppresses by
 * it, segments compares filters with it.
 */
export function toE164(raw: string): string | undefined {
  if (e164s.has(raw)) return e164s.get(raw);
  const e164 = parseE164(raw);
  // Parsing is the costly part of deciding an event; a busy workspace sends the same numbers often.
  if (e164s.size >= E164_CACHE_SIZE) e164s.clear();
  e164s.set(raw, e164);
  return e164;
}

function parseE164(raw: string): string | undefined {
  const text = raw.trim();
  if (!PHONE_CHARACTERS.test(text)) return undefined;
  const international = text.startsWith('+')
    ? text
    : text.startsWith('00')
      ? `+${text.slice(2)}`
      : `+${text}`;
  const parsed = parsePhoneNumberFromString(international);
  return parsed?.isPossible() ? parsed.number : undefined;
}
