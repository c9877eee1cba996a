import { createHmac } from 'node:crypto';

/** Hex HMAC-SHA256 of `<t>.<raw body>`, keyed with the signing secret as the customer was shown it. */
export function signaturePart(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/**
 * The Service-Signature header: `t=<unix seconds>,v1=<hex>`, and for 24 hours after a roll a second
 * `v1=` made with the previous secret, so a receiver that still holds the old secret keeps verifying.
 */
export function signatureHeader(
  body: string,
  timestamp: number,
  secret: string,
  previousSecret?: string,
): string {
  const parts = [`t=${timestamp}`, `v1=${signaturePart(secret, timestamp, body)}`];
  if (previousSecret !== undefined) parts.push(`v1=${signaturePart(previousSecret, timestamp, body)}`);
  return parts.join(',');
}
