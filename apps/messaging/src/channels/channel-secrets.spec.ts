import { randomBytes } from 'node:crypto';

import { decryptSecret, encryptSecret } from '@cms/contracts';

import {
  callbackToken,
  callbackTokenHash,
  callbackUrl,
  maskCredential,
  openCredentials,
  sealCredentials,
} from './channel-secrets';

const key = randomBytes(32).toString('base64');

describe('channel secrets', () => {
  it('derives the callback token from the key and the channel id, and shows it under PUBLIC_BASE_URL', () => {
    const token = callbackToken(7, key);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(callbackToken(7, key)).toBe(token);
    expect(callbackToken(8, key)).not.toBe(token);
    expect(callbackToken(7, randomBytes(32).toString('base64'))).not.toBe(token);
    expect(callbackTokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(callbackUrl('https://api.example.com', 7, key)).toBe(
      `https://api.example.com/webhook/provider/${token}`,
    );
  });

  it('seals merged credentials so that decryptSecret opens them, the same bytes for the same record', () => {
    const credentials = { account_sid: 'AC123', auth_token: 'secret-token', port: 587 };
    const sealed = sealCredentials(credentials, key, 'record-1');
    expect(sealCredentials(credentials, key, 'record-1')).toBe(sealed);
    expect(sealCredentials(credentials, key, 'record-2')).not.toBe(sealed);
    expect(JSON.parse(decryptSecret(sealed, key))).toEqual(credentials);
    expect(openCredentials(sealed, key)).toEqual(credentials);
  });

  it('opens what the gateway sealed, and nothing for a channel without credentials', () => {
    expect(openCredentials(encryptSecret('{"bot_token":"123:abc"}', key), key)).toEqual({
      bot_token: '123:abc',
    });
    expect(openCredentials(null, key)).toEqual({});
    expect(() => openCredentials(encryptSecret('[1]', key), key)).toThrow(/not a JSON object/);
  });

  it('masks every value, showing only the last four characters of a long one', () => {
    expect(maskCredential('sk_live_abcdefgh1234')).toBe('••••1234');
    expect(maskCredential(12345678)).toBe('••••5678');
    expect(maskCredential({ nested: 'value-here' })).toBe('••••re"}');
    expect(maskCredential('short')).toBe('••••');
    expect(maskCredential(true)).toBe('••••');
  });
});
