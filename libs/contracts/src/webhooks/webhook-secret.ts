import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** `whsec_` and 32 random bytes, base64url: what a customer is shown once and signs with. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;

/** A sealed secret as it travels in request records and rests in the database. */
export const SEALED_SECRET_PATTERN = /^v1\.[A-Za-z0-9_-]{38,}$/;

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A new endpoint signing secret, in the clear: the gateway shows it once and puts only the sealed form on the log. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function keyFrom(keyBase64: string): Buffer {
  const key = Buffer.from(keyBase64, 'base64');
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes, base64 encoded');
  return key;
}

/**
 * Seals a secret with AES-256-GCM under `keyBase64` (the SECRETS_KEY both the gateway and
 * webhook-dispatch hold), with a random IV: `v1.<base64url of iv | tag | ciphertext>`.
 */
export function encryptSecret(plain: string, keyBase64: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(keyBase64), iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

/** Opens what encryptSecret sealed; throws when the key is wrong or the value was altered. */
export function decryptSecret(sealed: string, keyBase64: string): string {
  if (!SEALED_SECRET_PATTERN.test(sealed)) throw new Error('not a sealed secret');
  const raw = Buffer.from(sealed.slice(3), 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', keyFrom(keyBase64), raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}
