import { createECDH, randomBytes } from 'node:crypto';

import { validatePushSubscription } from './push-subscription';
import { pushFailureCode } from './web-push.adapter';

const ecdh = createECDH('prime256v1');
ecdh.generateKeys();
const keys = {
  p256dh: ecdh.getPublicKey().toString('base64url'),
  auth: randomBytes(16).toString('base64url'),
};

describe('push subscriptions', () => {
  it("accepts a browser's PushSubscription JSON", () => {
    const json = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', expirationTime: null, keys };
    expect(validatePushSubscription(json)).toEqual({
      subscription: { endpoint: json.endpoint, keys },
      problems: [],
    });
  });

  it('points at each problem', () => {
    const result = validatePushSubscription({
      endpoint: 'http://push.example/x',
      keys: {
        p256dh: ecdh.getPublicKey('base64url', 'compressed'),
        auth: randomBytes(8).toString('base64url'),
      },
    });
    expect(result.problems.map((problem) => problem.pointer)).toEqual([
      '/endpoint',
      '/keys/p256dh',
      '/keys/auth',
    ]);
    expect(validatePushSubscription({ endpoint: 'https://u:p@push.example/x', keys }).problems).toEqual([
      { pointer: '/endpoint', detail: 'endpoint must not carry credentials' },
    ]);
    expect(validatePushSubscription(null).problems).toHaveLength(3);
    expect(
      validatePushSubscription({ endpoint: 'https://push.example', keys: { ...keys, auth: 'not base64!' } })
        .problems,
    ).toEqual([expect.objectContaining({ pointer: '/keys/auth' })]);
  });

  it.each([
    [404, 'subscription_expired'],
    [410, 'subscription_expired'],
    [429, 'rate_limited'],
    [413, 'provider_error'],
    [400, 'provider_error'],
    [403, 'channel_misconfigured'],
    [503, 'provider_unavailable'],
  ])('maps a push service answer %s to %s', (status, expected) => {
    expect(pushFailureCode(status)).toBe(expected);
  });
});
