import { MessagingException } from '../decisions/messaging.exception';
import { checkProvider, mergeOneLevel } from './channel-rules';
import { subscriberId } from './create-push-subscription/create-push-subscription.handler';

describe('channel rules', () => {
  it('merges one level deep: null removes a member, anything else replaces it, nested objects whole', () => {
    expect(mergeOneLevel({ a: 1, b: { x: 1, y: 2 }, c: 'keep' }, { a: null, b: { x: 9 }, d: false })).toEqual(
      { b: { x: 9 }, c: 'keep', d: false },
    );
  });

  it('refuses a provider that does not serve the type, and names every missing credential', () => {
    expect(() => checkProvider('sandbox', 'whatsapp', {})).not.toThrow();
    const refusal = (() => {
      try {
        checkProvider('meta', 'whatsapp', { access_token: 'x' });
      } catch (error) {
        return error as MessagingException;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(MessagingException);
    expect(refusal!.status).toBe(422);
    expect(refusal!.toErrors().map((error) => error.source?.pointer)).toEqual([
      '/data/attributes/credentials/app_secret',
      '/data/attributes/credentials/verify_token',
      '/data/attributes/credentials/phone_number_id',
    ]);
    expect(() => checkProvider('smtp', 'sms', { host: 'h', port: 25, from: 'a@b.c' })).toThrow(
      /serves email/,
    );
  });

  it('derives one subscriber id per channel and endpoint', () => {
    const id = subscriberId(5, 'https://push.example.com/a');
    expect(id).toMatch(/^ps_[0-9a-f]{24}$/);
    expect(subscriberId(5, 'https://push.example.com/a')).toBe(id);
    expect(subscriberId(6, 'https://push.example.com/a')).not.toBe(id);
    expect(subscriberId(5, 'https://push.example.com/b')).not.toBe(id);
  });
});
