import {
  breaches,
  judge,
  metricValue,
  MINUTE_MS,
  recovered,
  topFailureCodes,
  windowEmptiesAt,
  windowRange,
  windowStats,
  type OutcomeBucket,
  type RuleSpec,
} from './alert-metrics';

const T0 = Date.parse('2026-11-24T10:00:00.000Z');

function rule(overrides: Partial<RuleSpec> = {}): RuleSpec {
  return {
    metric: 'failure_rate',
    comparator: 'gt',
    threshold: 0.2,
    windowMinutes: 15,
    minVolume: 20,
    scope: {},
    ...overrides,
  };
}

function bucket(minutesAfterT0: number, counts: Partial<OutcomeBucket> = {}): OutcomeBucket {
  return {
    minute: T0 + minutesAfterT0 * MINUTE_MS,
    channelId: 1,
    workflowId: 0,
    campaignId: 0,
    delivered: 0,
    failed: 0,
    suppressed: 0,
    failureCodes: {},
    ...counts,
  };
}

describe('the window of a rule', () => {
  it('covers the minute of the time and the window_minutes − 1 whole minutes before it', () => {
    const at = T0 + 14 * MINUTE_MS + 30_000;
    expect(windowRange(at, 15)).toEqual({ from: T0, to: T0 + 14 * MINUTE_MS });
  });

  it('sums only the buckets inside the window: the first minute in, the minute before it out', () => {
    const at = T0 + 14 * MINUTE_MS + 59_999;
    const stats = windowStats(
      [
        bucket(-1, { failed: 5 }),
        bucket(0, { failed: 1 }),
        bucket(14, { delivered: 2 }),
        bucket(15, { failed: 9 }),
      ],
      rule(),
      at,
    );
    expect(stats).toMatchObject({ volume: 3, failed: 1, delivered: 2, lastMinute: T0 + 14 * MINUTE_MS });
  });

  it('counts only the channel, workflow and campaign the scope names', () => {
    const buckets = [
      bucket(0, { failed: 1, channelId: 1, workflowId: 7 }),
      bucket(0, { failed: 2, channelId: 2, workflowId: 7 }),
      bucket(0, { failed: 4, channelId: 1, workflowId: 0, campaignId: 9 }),
    ];
    expect(windowStats(buckets, rule({ scope: { channel_id: 1 } }), T0).failed).toBe(5);
    expect(windowStats(buckets, rule({ scope: { workflow_id: 7 } }), T0).failed).toBe(3);
    expect(windowStats(buckets, rule({ scope: { channel_id: 1, campaign_id: 9 } }), T0).failed).toBe(4);
    expect(windowStats(buckets, rule(), T0).failed).toBe(7);
  });

  it('adds up the failure codes of its buckets', () => {
    const stats = windowStats(
      [
        bucket(0, { failed: 2, failureCodes: { invalid_recipient: 2 } }),
        bucket(1, { failed: 3, failureCodes: { invalid_recipient: 1, unreachable: 2 } }),
      ],
      rule(),
      T0 + MINUTE_MS,
    );
    expect(stats.failureCodes).toEqual({ invalid_recipient: 3, unreachable: 2 });
  });
});

describe('the metrics', () => {
  const stats = { volume: 10, delivered: 6, failed: 3, suppressed: 1, failureCodes: {}, lastMinute: T0 };

  it('divides failed, suppressed and delivered messages by the volume, and counts failures', () => {
    expect(metricValue('failure_rate', stats)).toBeCloseTo(0.3);
    expect(metricValue('suppression_rate', stats)).toBeCloseTo(0.1);
    expect(metricValue('delivery_rate', stats)).toBeCloseTo(0.6);
    expect(metricValue('failure_count', stats)).toBe(3);
  });

  it('gives a rate of 0 for an empty window', () => {
    const empty = { ...stats, volume: 0, delivered: 0, failed: 0, suppressed: 0 };
    expect(metricValue('failure_rate', empty)).toBe(0);
    expect(metricValue('delivery_rate', empty)).toBe(0);
  });
});

describe('firing and resolving', () => {
  const failing = (failed: number, delivered: number) => ({
    volume: failed + delivered,
    failed,
    delivered,
    suppressed: 0,
    failureCodes: {},
    lastMinute: T0,
  });

  it('does not fire below min_volume however bad the rate', () => {
    expect(breaches(rule(), failing(19, 0))).toBe(false);
    expect(judge(rule(), false, failing(19, 0))).toBeNull();
  });

  it('fires when min_volume is reached and the metric is beyond the threshold (strictly)', () => {
    expect(judge(rule(), false, failing(5, 15))).toBe('fire');
    // 4 of 20 is exactly 0.2: not greater.
    expect(judge(rule(), false, failing(4, 16))).toBeNull();
  });

  it('compares with lt for rules that watch for too little', () => {
    const low = rule({ metric: 'delivery_rate', comparator: 'lt', threshold: 0.9 });
    expect(judge(low, false, failing(5, 15))).toBe('fire');
    expect(judge(low, false, failing(1, 19))).toBeNull();
  });

  it('does not fire again while firing', () => {
    expect(judge(rule(), true, failing(20, 0))).toBeNull();
  });

  it('resolves when the metric over the window is back within the threshold', () => {
    expect(recovered(rule(), failing(4, 16))).toBe(true);
    expect(judge(rule(), true, failing(4, 16))).toBe('resolve');
  });

  it('keeps firing while the window holds too few messages to tell, and resolves once it is empty', () => {
    expect(judge(rule(), true, failing(3, 2))).toBeNull();
    expect(judge(rule(), true, failing(0, 0))).toBe('resolve');
  });

  it('knows when a window empties: the latest outcome minute plus the window', () => {
    expect(windowEmptiesAt(rule(), failing(3, 0), T0 + 30_000)).toBe(T0 + 15 * MINUTE_MS);
  });
});

describe('the top failure codes', () => {
  it('are the five most frequent, ties by code, each with its fix', () => {
    const top = topFailureCodes({
      unreachable: 2,
      invalid_recipient: 7,
      not_on_channel: 2,
      landline: 1,
      opted_out: 3,
      bounced: 1,
      spam_complaint: 0,
    });
    expect(top.map((entry) => [entry.code, entry.count])).toEqual([
      ['invalid_recipient', 7],
      ['opted_out', 3],
      ['not_on_channel', 2],
      ['unreachable', 2],
      ['bounced', 1],
    ]);
    expect(top[0]!.fix).toMatch(/Correct the contact/);
  });
});
