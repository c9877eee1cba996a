import { addChange, advance, contribution, emptyDelta, queuedMessage, REPLACED } from './send-counts';

describe('a send message’s contribution to its counts (§13)', () => {
  it('counts a queued message as made and queued', () => {
    expect(contribution(queuedMessage())).toMatchObject({ made: 1, queued: 1, sent: 0, failed: 0 });
  });

  it('counts delivered and read messages as sent too, and keeps what was reached when a receipt comes late', () => {
    const read = advance(advance(queuedMessage(), 'read', null), 'delivered', null);
    expect(read.status).toBe('read');
    expect(contribution(read)).toMatchObject({ queued: 0, sent: 1, delivered: 1, read: 1 });
  });

  it('counts a failure after sent as failed only, with its code, so the buckets add up to what was made', () => {
    const failed = advance(advance(queuedMessage(), 'sent', null), 'failed', 'undelivered');
    const counted = contribution(failed);
    expect(counted).toMatchObject({ made: 1, queued: 0, sent: 0, failed: 1, code: 'undelivered' });
    expect(counted.queued + counted.sent + counted.failed + counted.suppressed).toBe(counted.made);
  });

  it('counts a suppressed message as suppressed, and a replaced one as nothing', () => {
    expect(contribution(advance(queuedMessage(), 'suppressed', null))).toMatchObject({
      suppressed: 1,
      queued: 0,
    });
    expect(contribution({ ...queuedMessage(), status: REPLACED })).toMatchObject({ made: 0, queued: 0 });
  });

  it('moves the counts by the difference between before and after, codes included', () => {
    const delta = emptyDelta();
    const sent = advance(queuedMessage(), 'sent', null);
    addChange(delta, null, queuedMessage());
    addChange(delta, queuedMessage(), sent);
    addChange(delta, sent, advance(sent, 'failed', 'blocked'));
    expect(delta).toMatchObject({ made: 1, queued: 0, sent: 0, failed: 1 });
    expect([...delta.codes]).toEqual([['blocked', 1]]);
  });
});
