import { fallsBack, movesForward, reached, suppressionReasonOf } from './message-lifecycle';

describe('movesForward', () => {
  it('moves only forward along queued, sent, delivered, read', () => {
    expect(movesForward('queued', 'sent')).toBe(true);
    expect(movesForward('sent', 'read')).toBe(true);
    expect(movesForward('read', 'delivered')).toBe(false);
    expect(movesForward('delivered', 'delivered')).toBe(false);
  });

  it('lets a failure follow queued or sent, and a suppression only queued', () => {
    expect(movesForward('sent', 'failed')).toBe(true);
    expect(movesForward('delivered', 'failed')).toBe(false);
    expect(movesForward('queued', 'suppressed')).toBe(true);
    expect(movesForward('sent', 'suppressed')).toBe(false);
  });

  it('moves nothing on from failed, suppressed or received', () => {
    for (const terminal of ['failed', 'suppressed', 'received']) {
      expect(movesForward(terminal, 'read')).toBe(false);
      expect(movesForward(terminal, 'failed')).toBe(false);
    }
  });
});

describe('reached', () => {
  it('counts a later stage as having reached the one waited for', () => {
    expect(reached('read', 'delivered')).toBe(true);
    expect(reached('sent', 'delivered')).toBe(false);
    expect(reached('failed', 'sent')).toBe(false);
  });
});

describe('fallsBack', () => {
  it('moves the route on for the failures §9 lists and for no_recipient only', () => {
    expect(fallsBack({ failureCode: 'invalid_recipient' })).toBe(true);
    expect(fallsBack({ failureCode: 'channel_misconfigured' })).toBe(true);
    expect(fallsBack({ failureCode: 'opted_out' })).toBe(false);
    expect(fallsBack({ failureCode: 'channel_disabled' })).toBe(false);
    expect(fallsBack({ suppressionReason: 'no_recipient' })).toBe(true);
    expect(fallsBack({ suppressionReason: 'no_consent' })).toBe(false);
  });
});

describe('suppressionReasonOf', () => {
  it('puts opt-outs, bounces and complaints on the suppression list', () => {
    expect(suppressionReasonOf('opted_out')).toBe('opted_out');
    expect(suppressionReasonOf('bounced')).toBe('bounced');
    expect(suppressionReasonOf('spam_complaint')).toBe('spam_complaint');
    expect(suppressionReasonOf('unreachable')).toBeUndefined();
  });
});
