import { createCipheriv, createHash, createHmac } from 'node:crypto';

import { decryptSecret } from '@cms/contracts';

/** The layout of `encryptSecret`: `v1.` and base64url of IV (12 bytes), GCM tag (16), ciphertext. */
const IV_BYTES = 12;

function keyBytes(secretsKey: string): Buffer {
  return Buffer.from(secretsKey, 'base64');
}

/**
 * The token of a channel's callback URL, derived from SECRETS_KEY and the channel id: the same on every
 * replica and after every rebuild, and never stored (only its hash is).
 */
export function callbackToken(channelId: number, secretsKey: string): string {
  return createHmac('sha256', keyBytes(secretsKey))
    .update(`channel-callback:${channelId}`)
    .digest('base64url');
}

/** What the channel row keeps of its token, and what an incoming callback's token is looked up by. */
export function callbackTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** `<PUBLIC_BASE_URL>/webhook/provider/<token>`: where the provider sends statuses and inbound messages. */
export function callbackUrl(publicBaseUrl: string, channelId: number, secretsKey: string): string {
  return `${publicBaseUrl}/webhook/provider/${callbackToken(channelId, secretsKey)}`;
}

/** The credentials a channel holds: its sealed JSON opened (none when nothing was sealed). */
export function openCredentials(sealed: string | null, secretsKey: string): Record<string, unknown> {
  if (sealed === null) return {};
  const parsed: unknown = JSON.parse(decryptSecret(sealed, secretsKey));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('sealed credentials are not a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/**
 * Seals merged credentials as `encryptSecret` does (so `decryptSecret` opens them), with the IV derived
 * from the key, the deciding record and the plain text instead of drawn at random: a rebuild deciding
 * the record again stores the same bytes, and no two different texts ever share an IV under the key.
 */
export function sealCredentials(
  credentials: Record<string, unknown>,
  secretsKey: string,
  recordId: string,
): string {
  const key = keyBytes(secretsKey);
  const plain = JSON.stringify(credentials);
  // A key of its own for the IVs, derived from SECRETS_KEY: the cipher's key is used for nothing else.
  const ivKey = createHmac('sha256', key).update('channel-credentials-iv').digest();
  const iv = createHmac('sha256', ivKey).update(`${recordId}:`).update(plain).digest().subarray(0, IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

/** Shorter values are shown as the mask alone: their last four characters would be most of them. */
const SHOWN_FROM_LENGTH = 8;

/** A credential as reads show it: `••••` and its last four characters, never the rest. */
export function maskCredential(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length >= SHOWN_FROM_LENGTH ? `••••${text.slice(-4)}` : '••••';
}

export function maskCredentials(credentials: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(credentials).map(([name, value]) => [name, maskCredential(value)]),
  );
}
