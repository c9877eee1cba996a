import { randomBytes } from 'node:crypto';

import {
  decryptSecret,
  encryptSecret,
  generateWebhookSecret,
  SEALED_SECRET_PATTERN,
  WEBHOOK_SECRET_PATTERN,
} from './webhook-secret';

describe('webhook signing secrets', () => {
  const key = randomBytes(32).toString('base64');

  it('are whsec_ and 32 random bytes in base64url', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(Buffer.from(secret.slice(6), 'base64url')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('seal with AES-256-GCM under a random IV and open again only with the same key', () => {
    const secret = generateWebhookSecret();
    const sealed = encryptSecret(secret, key);
    expect(sealed).toMatch(SEALED_SECRET_PATTERN);
    expect(sealed).not.toContain(secret.slice(6));
    expect(encryptSecret(secret, key)).not.toBe(sealed);
    expect(decryptSecret(sealed, key)).toBe(secret);
    expect(() => decryptSecret(sealed, randomBytes(32).toString('base64'))).toThrow();
  });

  it('refuse a sealed value that was altered, and a key that is not 32 bytes', () => {
    const sealed = encryptSecret(generateWebhookSecret(), key);
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1]! ^= 0x01;
    expect(() => decryptSecret(`v1.${raw.toString('base64url')}`, key)).toThrow();
    expect(() => encryptSecret('x', randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
  });
});
