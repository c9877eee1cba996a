import { createHmac, timingSafeEqual } from 'node:crypto';

/** 64 hex digits in any case, optionally after `sha256=`. */
const SIGNATURE_PATTERN = /^(?:sha256=)?([0-9a-f]{64})$/i;

/** The hex HMAC-SHA256 of `body` keyed with the signing secret exactly as shown (`whsec_` included). */
export function signBody(body: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Whether X-Webhook-Signature is the HMAC-SHA256 of the raw body under the integration's secret. The
 * comparison is on the 32 bytes themselves, in constant time; the pattern guarantees equal lengths.
 */
export function signatureMatches(header: string | undefined, rawBody: Buffer, secret: string): boolean {
  if (header === undefined) return false;
  const hex = SIGNATURE_PATTERN.exec(header.trim())?.[1];
  if (hex === undefined) return false;
  const given = Buffer.from(hex, 'hex');
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}
