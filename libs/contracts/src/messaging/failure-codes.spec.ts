import {
  FAILURE_CODES,
  FALLBACK_FAILURE_CODES,
  failureOf,
  isFailureCode,
  RETRIED_FAILURE_CODES,
} from './failure-codes';

describe('failure codes', () => {
  it('has every code of the specification, each with a reason and a fix for the customer', () => {
    expect(Object.keys(FAILURE_CODES).sort()).toEqual(
      [
        'invalid_recipient',
        'not_on_channel',
        'landline',
        'unreachable',
        'opted_out',
        'blocked_by_recipient',
        'outside_window',
        'template_error',
        'content_filtered',
        'rate_limited',
        'bounced',
        'spam_complaint',
        'subscription_expired',
        'channel_misconfigured',
        'channel_disabled',
        'provider_unavailable',
        'expired',
        'provider_error',
      ].sort(),
    );
    for (const { reason, fix } of Object.values(FAILURE_CODES)) {
      expect(reason.length).toBeGreaterThan(20);
      expect(fix.length).toBeGreaterThan(20);
      expect(reason).not.toEqual(fix);
    }
  });

  it('retries only rate limits and provider outages', () => {
    expect([...RETRIED_FAILURE_CODES].sort()).toEqual(['provider_unavailable', 'rate_limited']);
  });

  it('falls back on the eight codes the specification lists, and not on a retried one', () => {
    expect(FALLBACK_FAILURE_CODES).toHaveLength(8);
    expect(FALLBACK_FAILURE_CODES).toEqual(
      expect.arrayContaining(['not_on_channel', 'landline', 'subscription_expired', 'channel_misconfigured']),
    );
    expect(FALLBACK_FAILURE_CODES.filter((code) => RETRIED_FAILURE_CODES.includes(code))).toEqual([]);
    expect(FALLBACK_FAILURE_CODES).not.toContain('opted_out');
  });

  it("makes the message's failure with the provider's own code kept as text", () => {
    expect(failureOf('invalid_recipient', 21211)).toEqual({
      code: 'invalid_recipient',
      reason: FAILURE_CODES.invalid_recipient.reason,
      fix: FAILURE_CODES.invalid_recipient.fix,
      provider_code: '21211',
    });
    expect(failureOf('channel_disabled').provider_code).toBeNull();
  });

  it('tells a failure code from any other text', () => {
    expect(isFailureCode('bounced')).toBe(true);
    expect(isFailureCode('toString')).toBe(false);
    expect(isFailureCode('no_consent')).toBe(false);
  });
});
