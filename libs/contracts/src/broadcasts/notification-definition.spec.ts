import {
  nextScheduledStart,
  parseNotificationSchedule,
  readNotificationDefinition,
} from './notification-definition';

const NOW = new Date('2026-11-28T12:00:00.000Z');

describe('readNotificationDefinition', () => {
  it('fills in the defaults of a create', () => {
    const reading = readNotificationDefinition(
      { name: 'Sale', template_id: 1, target_group_id: 2 },
      'create',
      NOW,
    );
    expect(reading).toEqual({
      ok: true,
      value: {
        name: 'Sale',
        template_id: 1,
        target_group_id: 2,
        variables: {},
        route: null,
        schedule: null,
        schedule_timezone: 'UTC',
        enabled: true,
        purpose: 'marketing',
        throttle_per_minute: null,
      },
    });
  });

  it('names every problem at its pointer', () => {
    const reading = readNotificationDefinition(
      {
        name: '  ',
        template_id: 0,
        schedule: '2026-11-28T11:00:00Z',
        schedule_timezone: 'Mars/Olympus',
        purpose: 'spam',
        throttle_per_minute: 0,
        route: [{ template_id: 3 }],
        colour: 'red',
      },
      'create',
      NOW,
    );
    expect(reading.ok).toBe(false);
    const pointers = reading.ok ? [] : reading.problems.map((problem) => problem.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining([
        '/data/attributes/name',
        '/data/attributes/template_id',
        '/data/attributes/target_group_id',
        '/data/attributes/schedule',
        '/data/attributes/schedule_timezone',
        '/data/attributes/purpose',
        '/data/attributes/throttle_per_minute',
        '/data/attributes/route/0/channel_id',
        '/data/attributes/colour',
      ]),
    );
  });

  it('reads an update as only what was sent, and null clears a schedule', () => {
    expect(readNotificationDefinition({ schedule: null, enabled: false }, 'update', NOW)).toEqual({
      ok: true,
      value: { schedule: null, enabled: false },
    });
  });

  it('refuses a cron expression of six fields or that does not parse', () => {
    for (const schedule of ['* * * * * *', '61 * * * *', 'every day']) {
      expect(readNotificationDefinition({ schedule }, 'update', NOW).ok).toBe(false);
    }
  });
});

describe('the next scheduled start', () => {
  it('is the time itself while it is ahead, and none once it has passed', () => {
    expect(nextScheduledStart('2026-11-29T08:00:00Z', 'UTC', NOW)?.toISOString()).toBe(
      '2026-11-29T08:00:00.000Z',
    );
    expect(nextScheduledStart('2026-11-28T08:00:00Z', 'UTC', NOW)).toBeNull();
  });

  it('reads a cron expression in its time zone', () => {
    // Mondays at 09:00 in Berlin (UTC+1 in winter): Monday 30 November, 08:00 UTC.
    expect(nextScheduledStart('0 9 * * 1', 'Europe/Berlin', NOW)?.toISOString()).toBe(
      '2026-11-30T08:00:00.000Z',
    );
  });

  it('tells a time from a cron expression', () => {
    expect(parseNotificationSchedule('2026-12-01T10:00:00+01:00')).toEqual({
      kind: 'once',
      at: new Date('2026-12-01T09:00:00.000Z'),
    });
    expect(parseNotificationSchedule('*/5 * * * *')).toEqual({ kind: 'cron', expression: '*/5 * * * *' });
    expect(parseNotificationSchedule('tomorrow')).toBeNull();
  });
});
