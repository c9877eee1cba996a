import type { SendFailure } from '../provider';
import { failed, IN_DOUBT_DETAIL } from '../provider-http';

/** What nodemailer attaches to the errors it throws. */
export interface SmtpError {
  code?: string;
  command?: string;
  response?: string;
  responseCode?: number;
  message?: string;
}

const UNREACHABLE_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ETLS', 'ECONNREFUSED']);

/**
 * Our failure for an SMTP error: a permanent refusal of the recipient or of the message is a hard
 * bounce (the address goes on the suppression list), a refused login or sender is the channel's
 * settings, and a temporary refusal or no connection is retried.
 */
export function smtpFailure(error: SmtpError): SendFailure {
  const responseCode = error.responseCode;
  const detail = (error.response ?? error.message ?? 'the SMTP server refused the message').trim();
  if (error.code === 'EAUTH' || error.code === 'ENOAUTH' || responseCode === 535 || responseCode === 530) {
    return failed('channel_misconfigured', responseCode ?? error.code ?? null, detail);
  }
  if (responseCode !== undefined && responseCode >= 400 && responseCode < 500) {
    return failed('provider_unavailable', responseCode, detail);
  }
  if (responseCode !== undefined && responseCode >= 500) {
    if (error.command === 'MAIL FROM') return failed('channel_misconfigured', responseCode, detail);
    return failed('bounced', responseCode, detail);
  }
  // The message's end was sent and its answer never came: the server may have taken it.
  if (error.command === 'DATA' && error.code !== undefined && UNREACHABLE_CODES.has(error.code)) {
    return failed('provider_error', error.code, `${detail}: ${IN_DOUBT_DETAIL}`);
  }
  if (error.code !== undefined && UNREACHABLE_CODES.has(error.code)) {
    return failed('provider_unavailable', error.code, detail);
  }
  return failed('provider_error', error.code ?? null, detail);
}
