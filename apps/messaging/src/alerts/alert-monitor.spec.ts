import type { AlertRuleEntity } from './alert.entity';
import { MINUTE_MS } from './alert-metrics';
import { AlertMonitor, type MessageOutcome } from './alert-monitor';

const T0 = Date.parse('2026-11-24T10:00:00.000Z');

function rule(overrides: Partial<AlertRuleEntity> = {}): AlertRuleEntity {
  return {
    workspaceId: 5,
    id: 1,
    name: 'r',
    metric: 'failure_rate',
    comparator: 'gt',
    threshold: 0.5,
    windowMinutes: 5,
    minVolume: 4,
    scope: {},
    enabled: true,
    createdAt: new Date(T0),
    updatedAt: new Date(T0),
    ...overrides,
  };
}

const failed: MessageOutcome = {
  kind: 'failed',
  failureCode: 'invalid_recipient',
  channelId: 1,
  workflowId: 0,
  campaignId: 0,
};
const delivered: MessageOutcome = { ...failed, kind: 'delivered', failureCode: null };

function at(seconds: number): Date {
  return new Date(T0 + seconds * 1000);
}

describe('AlertMonitor', () => {
  it('fires once when a burst of failures reaches min_volume, with its value, sample and codes', () => {
    const monitor = new AlertMonitor(5, [rule()], [], [], []);
    const changes = [0, 1, 2, 3, 4, 5].flatMap((second) => monitor.record(failed, at(second), `r${second}`));
    expect(changes).toHaveLength(1);
    const [fired] = changes;
    expect(fired!.notificationSeq).toBe(1);
    expect(fired!.alert).toMatchObject({
      status: 'firing',
      ruleId: 1,
      value: 1,
      sampleSize: 4,
      startedAt: at(3),
      resolvedAt: null,
      topFailureCodes: [{ code: 'invalid_recipient', count: 4, fix: expect.any(String) }],
    });
    expect(fired!.alert.id).toMatch(/^alert_[0-9a-f]{32}$/);
    // Its check: when the window of 5 minutes holds the burst's minute no more.
    expect(fired!.checkAt).toEqual(new Date(T0 + 5 * MINUTE_MS));
  });

  it('resolves with notification 2 once deliveries bring the rate back within the threshold', () => {
    const monitor = new AlertMonitor(5, [rule()], [], [], []);
    for (const second of [0, 1, 2, 3]) monitor.record(failed, at(second), `f${second}`);
    const changes = [10, 11, 12, 13].flatMap((second) => monitor.record(delivered, at(second), `d${second}`));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      notificationSeq: 2,
      checkAt: null,
      alert: { status: 'resolved', value: 0.5, sampleSize: 8, resolvedAt: at(13) },
    });
    expect(monitor.firingAlert(1)).toBeUndefined();
  });

  it('judges only rules whose scope the outcome falls in', () => {
    const monitor = new AlertMonitor(5, [rule({ scope: { channel_id: 2 } })], [], [], []);
    const changes = [0, 1, 2, 3].flatMap((second) => monitor.record(failed, at(second), `r${second}`));
    expect(changes).toEqual([]);
  });

  it('resolves at a check when the window has emptied, and asks to check again while it has not', () => {
    const monitor = new AlertMonitor(5, [rule()], [], [], []);
    const [fired] = [0, 1, 2, 3].flatMap((second) => monitor.record(failed, at(second), `r${second}`));
    const early = monitor.check(1, fired!.alert.id, at(120), 'c1');
    expect(early).toEqual({ resolved: null, checkAgainAt: new Date(T0 + 5 * MINUTE_MS) });
    const due = monitor.check(1, fired!.alert.id, new Date(T0 + 5 * MINUTE_MS), 'c2');
    expect(due.resolved).toMatchObject({ notificationSeq: 2, alert: { status: 'resolved', sampleSize: 0 } });
  });

  it('ignores the check of an alert that resolved already', () => {
    const monitor = new AlertMonitor(5, [rule()], [], [], []);
    expect(monitor.check(1, 'alert_0123456789abcdef0123456789abcdef', at(0), 'c')).toEqual({
      resolved: null,
      checkAgainAt: null,
    });
  });

  it('takes back counts and alerts when a refused decision is undone', () => {
    const undo: Array<() => void> = [];
    const monitor = new AlertMonitor(5, [rule()], [], [], undo);
    for (const second of [0, 1, 2]) monitor.record(failed, at(second), `r${second}`);
    const mark = undo.length;
    expect(monitor.record(failed, at(3), 'r3')).toHaveLength(1);
    while (undo.length > mark) undo.pop()!();
    expect(monitor.firingAlert(1)).toBeUndefined();
    expect(monitor.changedAlerts.size).toBe(0);
    // The undone failure is not counted: a fourth failure fires.
    expect(monitor.record(failed, at(4), 'r4')).toHaveLength(1);
  });

  it('decides the same whatever the grouping: a monitor rebuilt from the buckets continues alike', () => {
    const whole = new AlertMonitor(5, [rule()], [], [], []);
    const first = new AlertMonitor(5, [rule()], [], [], []);
    const outcomes = [failed, delivered, failed, failed, failed, delivered, delivered, delivered, delivered];
    const wholeChanges = outcomes.flatMap((outcome, index) =>
      whole.record(outcome, at(index * 20), `r${index}`),
    );
    const firstChanges = outcomes
      .slice(0, 5)
      .flatMap((outcome, index) => first.record(outcome, at(index * 20), `r${index}`));
    const buckets = [...first.changedBuckets].map((key) => first.bucket(key));
    const firing = [...first.changedAlerts.values()].filter((alert) => alert.status === 'firing');
    const second = new AlertMonitor(5, [rule()], firing, buckets, []);
    const secondChanges = outcomes
      .slice(5)
      .flatMap((outcome, index) => second.record(outcome, at((index + 5) * 20), `r${index + 5}`));
    expect([...firstChanges, ...secondChanges]).toEqual(wholeChanges);
  });
});
