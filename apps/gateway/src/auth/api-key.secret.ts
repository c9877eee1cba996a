import { createHash, randomBytes } from 'node:crypto';

/** Every key starts with this, so a leaked key is recognisable by secret scanners. */
export const API_KEY_PREFIX = 'cms_live_';

export interface MintedApiKey {
  key: string;
  hash: string;
  prefix: string;
}

/** 32 random bytes: long enough that a plain SHA-256 is a safe way to store it. */
export function mintApiKey(): MintedApiKey {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, API_KEY_PREFIX.length + 6) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
