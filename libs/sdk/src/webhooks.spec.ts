import { createHmac } from 'node:crypto';

import {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookVerificationFailure,
} from './webhooks';

// The golden vector of webhook-dispatch's signer (computed with `openssl dgst -sha256 -hmac`).
const BODY =
  '{"id":"6f9c1b1e-8c49-4a4b-9a52-2f0b7f1f5e10","type":"consent.granted","created_at":"2026-03-01T12:00:00.000Z","data":{"channel":"sms","status":"granted","source":"api","contact":{"id":7,"external_id":null,"name":"Ada","phone":"+447700900123","email":null}}}';
const SECRET = 'whsec_k3mQn9XvB2pL7rT4yW8zA1cD5eF6gH0jK2lM3nP4qR5';
const PREVIOUS = 'whsec_oldOLDoldOLDoldOLDoldOLDoldOLDoldOLDoldOLD';
const T = 1700000000;
const GOLDEN = '593fa059f1acc5136ef634f980e62d0d03a907545d6e142fa58a65262abe46f8';
const GOLDEN_PREVIOUS = '99d71a9cd273a1f5ada10047846737865193c63df4eadef0ab2f8ef5fe98ac90';
const AT_T = new Date(T * 1000);

function reasonOf(run: () => unknown): WebhookVerificationFailure | 'accepted' {
  try {
    run();
    return 'accepted';
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
}

describe('verifyWebhook', () => {
  it('accepts the golden vector and returns the envelope, from a string or the raw bytes', () => {
    const header = `t=${T},v1=${GOLDEN}`;
    const event = verifyWebhook({ secret: SECRET, header, body: BODY, now: AT_T });
    expect(event).toEqual(JSON.parse(BODY));
    expect(event.type).toBe('consent.granted');
    expect(verifyWebhook({ secret: SECRET, header, body: Buffer.from(BODY, 'utf8'), now: AT_T }).id).toBe(
      '6f9c1b1e-8c49-4a4b-9a52-2f0b7f1f5e10',
    );
    // Node's header list form, and the current time when none is given (signed now).
    const t = Math.floor(Date.now() / 1000);
    const fresh = createHmac('sha256', SECRET).update(`${t}.${BODY}`).digest('hex');
    expect(verifyWebhook({ secret: SECRET, header: [`t=${t},v1=${fresh}`], body: BODY }).data).toMatchObject({
      channel: 'sms',
    });
  });

  it('refuses a signature made with another secret', () => {
    expect(
      reasonOf(() =>
        verifyWebhook({ secret: PREVIOUS, header: `t=${T},v1=${GOLDEN}`, body: BODY, now: AT_T }),
      ),
    ).toBe('signature_mismatch');
  });

  it('refuses a body changed after signing, by one byte or by re-serialising the same JSON', () => {
    const header = `t=${T},v1=${GOLDEN}`;
    for (const body of [
      BODY.replace('"sms"', '"email"'),
      `${BODY}\n`,
      JSON.stringify(JSON.parse(BODY), null, 2),
      Buffer.from(BODY.replace('Ada', 'Adb')),
    ]) {
      expect(reasonOf(() => verifyWebhook({ secret: SECRET, header, body, now: AT_T }))).toBe(
        'signature_mismatch',
      );
    }
    // The timestamp is signed too: moving it breaks the signature.
    expect(
      reasonOf(() =>
        verifyWebhook({ secret: SECRET, header: `t=${T + 1},v1=${GOLDEN}`, body: BODY, now: AT_T }),
      ),
    ).toBe('signature_mismatch');
  });

  it('refuses a timestamp older than the tolerance, or further ahead, and accepts one at the edge', () => {
    const header = `t=${T},v1=${GOLDEN}`;
    const at = (seconds: number) => new Date((T + seconds) * 1000);
    const verify = (now: Date, toleranceSeconds?: number) =>
      reasonOf(() =>
        verifyWebhook({
          secret: SECRET,
          header,
          body: BODY,
          now,
          ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }),
        }),
      );
    expect(verify(at(300))).toBe('accepted');
    expect(verify(at(301))).toBe('timestamp_too_old');
    expect(verify(at(86400))).toBe('timestamp_too_old');
    expect(verify(at(-300))).toBe('accepted');
    expect(verify(at(-301))).toBe('timestamp_in_future');
    expect(verify(at(301), 600)).toBe('accepted');
    expect(verify(at(11), 10)).toBe('timestamp_too_old');
  });

  it('accepts either v1 after a roll (one per secret), in any order', () => {
    for (const header of [
      `t=${T},v1=${GOLDEN},v1=${GOLDEN_PREVIOUS}`,
      `t=${T},v1=${GOLDEN_PREVIOUS},v1=${GOLDEN}`,
      `v1=${GOLDEN_PREVIOUS}, t=${T}, v1=${GOLDEN}`,
    ]) {
      for (const secret of [SECRET, PREVIOUS]) {
        expect([
          header,
          secret,
          reasonOf(() => verifyWebhook({ secret, header, body: BODY, now: AT_T })),
        ]).toEqual([header, secret, 'accepted']);
      }
      expect(reasonOf(() => verifyWebhook({ secret: 'whsec_other', header, body: BODY, now: AT_T }))).toBe(
        'signature_mismatch',
      );
    }
    // Other schemes are ignored: a v0 of the right value is no v1.
    expect(
      reasonOf(() =>
        verifyWebhook({
          secret: SECRET,
          header: `t=${T},v0=${GOLDEN},v1=${'0'.repeat(64)}`,
          body: BODY,
          now: AT_T,
        }),
      ),
    ).toBe('signature_mismatch');
  });

  it('refuses a missing or malformed header, naming why', () => {
    const cases: Array<[string | string[] | undefined | null, WebhookVerificationFailure]> = [
      [undefined, 'missing_header'],
      [null, 'missing_header'],
      ['', 'missing_header'],
      ['   ', 'missing_header'],
      [[], 'missing_header'],
      [[`t=${T},v1=${GOLDEN}`, `t=${T},v1=${GOLDEN}`], 'malformed_header'],
      [GOLDEN, 'malformed_header'],
      [`v1=${GOLDEN}`, 'malformed_header'],
      [`t=${T}`, 'malformed_header'],
      [`t=${T},v0=${GOLDEN}`, 'malformed_header'],
      [`t=,v1=${GOLDEN}`, 'malformed_header'],
      [`t=1700000000.5,v1=${GOLDEN}`, 'malformed_header'],
      [`t=-1,v1=${GOLDEN}`, 'malformed_header'],
      [`t=abc,v1=${GOLDEN}`, 'malformed_header'],
      [`t=${T},t=${T},v1=${GOLDEN}`, 'malformed_header'],
      [`t=${T};v1=${GOLDEN}`, 'malformed_header'],
      [`t=${T},,v1=${GOLDEN}`, 'malformed_header'],
      [`t=${T},v1=${GOLDEN.slice(0, 63)}`, 'signature_mismatch'],
      [`t=${T},v1=${GOLDEN}00`, 'signature_mismatch'],
      [`t=${T},v1=${GOLDEN.slice(0, 62)}zz`, 'signature_mismatch'],
    ];
    for (const [header, reason] of cases) {
      expect([
        header,
        reasonOf(() => verifyWebhook({ secret: SECRET, header, body: BODY, now: AT_T })),
      ]).toEqual([header, reason]);
    }
  });

  it('refuses a correctly signed body that is not a webhook envelope', () => {
    for (const body of [
      'not json',
      '[]',
      'null',
      '{"id":"x","type":"t","created_at":"2026-01-01T00:00:00Z"}',
    ]) {
      const header = `t=${T},v1=${createHmac('sha256', SECRET).update(`${T}.${body}`).digest('hex')}`;
      expect([body, reasonOf(() => verifyWebhook({ secret: SECRET, header, body, now: AT_T }))]).toEqual([
        body,
        'invalid_body',
      ]);
    }
  });

  it('throws a typed error with a message, and a TypeError for arguments that cannot be right', () => {
    let caught: unknown;
    try {
      verifyWebhook({
        secret: SECRET,
        header: `t=${T},v1=${GOLDEN}`,
        body: BODY,
        now: new Date((T + 3600) * 1000),
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WebhookVerificationError);
    expect(caught).toBeInstanceOf(Error);
    expect(caught).toMatchObject({ name: 'WebhookVerificationError', reason: 'timestamp_too_old' });
    expect((caught as Error).message).toContain('3600 s old');

    const header = `t=${T},v1=${GOLDEN}`;
    expect(() => verifyWebhook({ secret: '', header, body: BODY, now: AT_T })).toThrow(TypeError);
    expect(() =>
      verifyWebhook({ secret: SECRET, header, body: JSON.parse(BODY) as string, now: AT_T }),
    ).toThrow(TypeError);
    expect(() =>
      verifyWebhook({ secret: SECRET, header, body: BODY, now: AT_T, toleranceSeconds: -1 }),
    ).toThrow(TypeError);
    expect(() => verifyWebhook({ secret: SECRET, header, body: BODY, now: new Date(Number.NaN) })).toThrow(
      TypeError,
    );
  });
});

/** Not run: `tsc` (npm run typecheck) holds an event to the kinds and shapes the document describes. */
export function typedEvents(event: WebhookEvent): string | null {
  if (event.type === 'message.failed') return event.data.failure?.code ?? null;
  if (event.type === 'webhook.test') return event.id;
  // @ts-expect-error not a kind the document describes
  if (event.type === 'message.exploded') return null;
  return event.created_at;
}
