import { DEFAULT_ALERT_RULE, redefines, ruleProblems, scopeOf } from './alert-rule-rules';
import type { AlertRuleEntity } from './alert.entity';

describe('alert rule validation', () => {
  it('takes a rate threshold between 0 and 1 inclusive', () => {
    expect(ruleProblems({ metric: 'failure_rate', threshold: 0 }, { threshold: true })).toEqual([]);
    expect(ruleProblems({ metric: 'delivery_rate', threshold: 1 }, { threshold: true })).toEqual([]);
    expect(ruleProblems({ metric: 'suppression_rate', threshold: 1.5 }, { threshold: true })).toEqual([
      { pointer: '/data/attributes/threshold', detail: expect.stringMatching(/between 0 and 1/) },
    ]);
    expect(ruleProblems({ metric: 'failure_rate', threshold: -0.1 }, { threshold: true })).toHaveLength(1);
  });

  it('takes a count threshold that is a whole number, 0 or more', () => {
    expect(ruleProblems({ metric: 'failure_count', threshold: 50 }, { threshold: true })).toEqual([]);
    expect(ruleProblems({ metric: 'failure_count', threshold: 2.5 }, { threshold: true })).toHaveLength(1);
    expect(ruleProblems({ metric: 'failure_count', threshold: -1 }, { threshold: true })).toHaveLength(1);
  });

  it('points at the metric when a PATCH of the metric alone leaves the threshold out of range', () => {
    expect(ruleProblems({ metric: 'failure_rate', threshold: 50 }, { threshold: false })).toEqual([
      { pointer: '/data/attributes/metric', detail: expect.any(String) },
    ]);
  });

  it('makes the default rule failure_rate gt 0.2 over 15 minutes with min_volume 20', () => {
    expect(DEFAULT_ALERT_RULE).toMatchObject({
      id: 1,
      metric: 'failure_rate',
      comparator: 'gt',
      threshold: 0.2,
      windowMinutes: 15,
      minVolume: 20,
      scope: {},
      enabled: true,
    });
  });

  it('keeps only the scope keys given', () => {
    expect(scopeOf(undefined)).toEqual({});
    expect(scopeOf({ workflow_id: 3, channel_id: 2 })).toEqual({ channel_id: 2, workflow_id: 3 });
  });

  it('tells a renamed rule from a redefined or switched-off one', () => {
    const rule = {
      ...DEFAULT_ALERT_RULE,
      scope: {},
      workspaceId: 1,
      createdAt: new Date(0),
      updatedAt: new Date(0),
    } as AlertRuleEntity;
    expect(redefines(rule, { ...rule, name: 'other' })).toBe(false);
    expect(redefines(rule, { ...rule, threshold: 0.3 })).toBe(true);
    expect(redefines(rule, { ...rule, scope: { channel_id: 4 } })).toBe(true);
    // The same scope in another key order (as jsonb reads it back) is the same rule.
    const scoped = { ...rule, scope: { channel_id: 4, campaign_id: 7 } };
    expect(redefines(scoped, { ...rule, scope: { campaign_id: 7, channel_id: 4 } })).toBe(false);
    expect(redefines(rule, { ...rule, enabled: false })).toBe(true);
  });
});
