import { createHmac } from 'node:crypto';

/**
 * X-Twilio-Signature: base64 HMAC-SHA1, keyed with the account's auth token, of the full URL Twilio
 * called followed by each POST parameter's name and value, sorted by name.
 */
export function twilioSignature(authToken: string, url: string, params: URLSearchParams): string {
  const pairs = [...params.entries()].sort(([a, av], [b, bv]) =>
    a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1,
  );
  const data = url + pairs.map(([name, value]) => name + value).join('');
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}
