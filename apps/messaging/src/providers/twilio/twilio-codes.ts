import type { FailureCode } from '../provider';

/** Twilio error codes (REST answers and the ErrorCode of status callbacks) that map to ours. */
const TWILIO_CODES: Record<string, FailureCode> = {
  '21211': 'invalid_recipient',
  '21614': 'landline',
  '30005': 'invalid_recipient',
  '30006': 'landline',
  '30003': 'unreachable',
  '21612': 'unreachable',
  '30036': 'expired',
  '21610': 'opted_out',
  '30004': 'blocked_by_recipient',
  '30007': 'content_filtered',
  '30001': 'rate_limited',
  '20429': 'rate_limited',
  '20003': 'channel_misconfigured',
  '20404': 'channel_misconfigured',
  '21606': 'channel_misconfigured',
  '21408': 'channel_misconfigured',
  '21659': 'channel_misconfigured',
  '30032': 'channel_misconfigured',
  '30034': 'channel_misconfigured',
  '63016': 'outside_window',
};

/** Our code for Twilio's error code, the HTTP status deciding when the code is not one we know. */
export function twilioFailureCode(code: string | undefined, httpStatus?: number): FailureCode {
  const known = code !== undefined ? TWILIO_CODES[code] : undefined;
  if (known !== undefined) return known;
  if (httpStatus === 429) return 'rate_limited';
  if (httpStatus === 401) return 'channel_misconfigured';
  if (httpStatus !== undefined && httpStatus >= 500) return 'provider_unavailable';
  return 'provider_error';
}
