import type { ReEntry } from '@cms/contracts';

import type { CriteriaContact } from './criteria';
import { reEntryDecision, startDecision, type ContactRun } from './start-decision';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const EVENT = { id: 101, name: 'order.paid', data: { total: 120 } };

const contact: CriteriaContact = {
  name: 'Ann',
  phone: null,
  email: null,
  external_id: 'u-1',
  source: null,
  data: { plan: 'pro' },
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-06-15T12:00:00Z',
  tag_ids: [],
  marketing_consent: {},
  channels: {},
};
const subject = { contact, eventsNamed: () => [] };

function workflow(overrides: { enabled?: boolean; filter?: unknown[]; re_entry?: ReEntry } = {}) {
  return {
    enabled: overrides.enabled ?? true,
    trigger: { event: 'order.paid', filter: overrides.filter ?? [] },
    re_entry: overrides.re_entry ?? 'after_exit',
  };
}

const going: ContactRun = { id: 2, status: 'waiting' };
const ended: ContactRun = { id: 1, status: 'completed' };

describe('startDecision', () => {
  it('starts a run of an enabled workflow for its trigger event', () => {
    expect(startDecision(workflow(), EVENT, [], subject, NOW)).toEqual({ start: true, replace: [] });
  });

  it('starts nothing for a disabled workflow or another event', () => {
    expect(startDecision(workflow({ enabled: false }), EVENT, [], subject, NOW)).toEqual({
      start: false,
      reason: 'disabled',
    });
    expect(startDecision(workflow(), { ...EVENT, name: 'order.refunded' }, [], subject, NOW)).toEqual({
      start: false,
      reason: 'other_event',
    });
  });

  it('reads the trigger filter over the contact and the event data', () => {
    const filter = [
      { field: 'data.plan', operator: 'eq', value: 'pro' },
      { field: 'event.data.total', operator: 'gte', value: 100 },
    ];
    expect(startDecision(workflow({ filter }), EVENT, [], subject, NOW).start).toBe(true);
    expect(startDecision(workflow({ filter }), { ...EVENT, data: { total: 5 } }, [], subject, NOW)).toEqual({
      start: false,
      reason: 'filter',
    });
  });
});

describe('reEntryDecision', () => {
  it('after_exit: starts unless a run is active or waiting', () => {
    expect(reEntryDecision('after_exit', [ended])).toEqual({ start: true, replace: [] });
    expect(reEntryDecision('after_exit', [ended, going])).toEqual({ start: false, reason: 're_entry' });
    expect(reEntryDecision('after_exit', [{ id: 3, status: 'active' }]).start).toBe(false);
  });

  it('never: starts only for a contact that never had a run of it', () => {
    expect(reEntryDecision('never', [])).toEqual({ start: true, replace: [] });
    expect(reEntryDecision('never', [ended])).toEqual({ start: false, reason: 're_entry' });
  });

  it('always: starts, replacing the run that is going', () => {
    expect(reEntryDecision('always', [ended, going])).toEqual({ start: true, replace: [2] });
    expect(reEntryDecision('always', [ended])).toEqual({ start: true, replace: [] });
  });
});
