import { deterministicId, toE164, type ChannelType } from '@cms/contracts';

const PHONE_CHANNELS: readonly ChannelType[] = ['whatsapp', 'sms', 'rcs'];
/** One @, something on each side, no white space: what a mail server could take. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** A suppression entry's id (`sup_…`), derived from what added it, so a rebuild derives it again. */
export function suppressionId(...parts: Array<string | number>): string {
  return `sup_${deterministicId(...parts).replace(/-/g, '')}`;
}

export function isPhoneChannel(type: ChannelType): boolean {
  return PHONE_CHANNELS.includes(type);
}

/** The E.164 form of a phone, as the contacts service stores a contact's (undefined: not a possible number). */
export const phoneE164 = toE164;

export type NormalisedAddress = { ok: true; address: string } | { ok: false; detail: string };

/**
 * An address as the suppression list keeps it for a channel type: phone numbers in E.164, email
 * addresses in lower case, linked channel ids as sent (trimmed). Anything else for the type is refused.
 */
export function normaliseAddress(type: ChannelType, raw: string): NormalisedAddress {
  const text = raw.trim();
  if (text === '') return { ok: false, detail: 'address must not be blank' };
  if (isPhoneChannel(type)) {
    const e164 = phoneE164(text);
    return e164 === undefined
      ? { ok: false, detail: `address must be a phone number with its country code for ${type}` }
      : { ok: true, address: e164 };
  }
  if (type === 'email') {
    return EMAIL.test(text)
      ? { ok: true, address: text.toLowerCase() }
      : { ok: false, detail: 'address must be an email address for email' };
  }
  return /\s/.test(text)
    ? { ok: false, detail: `address must be a linked ${type} id, without white space` }
    : { ok: true, address: text };
}

/**
 * The list's form of the address a message came from: normalised when it can be, else as it came
 * (trimmed), so a sender the list cannot normalise is still kept under what it sent.
 */
export function senderAddress(type: ChannelType, from: string): string {
  const normalised = normaliseAddress(type, from);
  return normalised.ok ? normalised.address : from.trim();
}

/** A `filter[address]` value in the list's form: an email in lower case, a phone number in E.164. */
export function addressFilter(raw: string): string {
  const text = raw.trim();
  if (text.includes('@')) return text.toLowerCase();
  return phoneE164(text) ?? text;
}
