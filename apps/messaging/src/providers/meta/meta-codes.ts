import type { FailureCode } from '../provider';

/** Graph API error codes (send answers and the errors of WhatsApp status callbacks) that map to ours. */
const META_CODES: Record<string, FailureCode> = {
  '131026': 'not_on_channel',
  '131047': 'outside_window',
  '131050': 'opted_out',
  '131021': 'invalid_recipient',
  '130429': 'rate_limited',
  '131048': 'rate_limited',
  '131056': 'rate_limited',
  '80007': 'rate_limited',
  '4': 'rate_limited',
  '613': 'rate_limited',
  '190': 'channel_misconfigured',
  '200': 'channel_misconfigured',
  '131031': 'channel_misconfigured',
  '133010': 'channel_misconfigured',
  '131000': 'provider_unavailable',
  '1': 'provider_unavailable',
  '2': 'provider_unavailable',
  '131016': 'provider_unavailable',
  '132000': 'template_error',
  '132001': 'template_error',
  '132005': 'template_error',
  '132007': 'template_error',
  '132012': 'template_error',
  '132015': 'template_error',
  '132016': 'template_error',
  '131049': 'content_filtered',
};

/** Messenger and Instagram refusals told apart by their subcode. */
const META_SUBCODES: Record<string, FailureCode> = {
  '2018278': 'outside_window',
  '2018001': 'not_on_channel',
  '1545041': 'unreachable',
  '2018108': 'blocked_by_recipient',
};

/** Our code for a Graph API error, the HTTP status deciding when the code is not one we know. */
export function metaFailureCode(
  code: string | undefined,
  subcode?: string,
  httpStatus?: number,
): FailureCode {
  const bySubcode = subcode !== undefined ? META_SUBCODES[subcode] : undefined;
  if (bySubcode !== undefined) return bySubcode;
  const known = code !== undefined ? META_CODES[code] : undefined;
  if (known !== undefined) return known;
  if (httpStatus === 429) return 'rate_limited';
  if (httpStatus !== undefined && httpStatus >= 500) return 'provider_unavailable';
  return 'provider_error';
}
