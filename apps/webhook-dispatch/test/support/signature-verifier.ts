import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A receiver's verifier written from the specification's "Signature verification" alone, sharing no
 * code with the service: parse t and the v1 values, HMAC-SHA256 over `<t>.<raw body>` with the signing
 * secret, compare in constant time, refuse a timestamp older than five minutes.
 */
export function verifySignature(
  header: string,
  rawBody: string,
  secret: string,
  nowSeconds: number,
): boolean {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (name === 't') timestamp = Number(value);
    if (name === 'v1') signatures.push(value);
  }
  if (timestamp === undefined || !Number.isInteger(timestamp)) return false;
  if (nowSeconds - timestamp > 300) return false;
  const expected = Buffer.from(
    createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex'),
    'utf8',
  );
  return signatures.some((signature) => {
    const given = Buffer.from(signature, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
