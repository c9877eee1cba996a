import { botProblems, patchedBot, readBotDefinition, type BotDefinition } from './bot-definition';

const SCHEDULE = {
  name: 'Weekly',
  mode: 'flow',
  trigger_type: 'schedule',
  target_group_id: 4,
  settings: { schedule_cron: '0 9 * * 1', channel_id: 2 },
  flow_definition: { steps: [{ id: 'q', type: 'question', text: 'How was your week?' }] },
};

function created(body: Record<string, unknown>): BotDefinition {
  const reading = readBotDefinition(body, 'create');
  if (!reading.ok) throw new Error(JSON.stringify(reading.problems));
  return reading.value;
}

function pointersOf(body: unknown, mode: 'create' | 'update' = 'create'): string[] {
  const reading = readBotDefinition(body, mode);
  return reading.ok ? [] : reading.problems.map((problem) => problem.pointer);
}

describe('readBotDefinition', () => {
  it('fills in a create and a schedule in UTC', () => {
    expect(created(SCHEDULE)).toMatchObject({
      enabled: true,
      description: null,
      settings: { schedule_cron: '0 9 * * 1', schedule_timezone: 'UTC', channel_id: 2 },
    });
  });

  it('names each problem by its pointer', () => {
    expect(pointersOf({})).toEqual([
      '/data/attributes/name',
      '/data/attributes/mode',
      '/data/attributes/trigger_type',
    ]);
    expect(pointersOf({ ...SCHEDULE, settings: { schedule_cron: '61 * * * *', channel_id: 2 } })).toEqual([
      '/data/attributes/settings/schedule_cron',
    ]);
    expect(
      pointersOf({
        ...SCHEDULE,
        flow_definition: {
          steps: [
            { id: 'a', type: 'branch', on: 'answer', cases: [{ matches: '(', next: 'a' }], default: 'zz' },
            { id: 'a', type: 'question', text: 'x', validate: 'regex:[' },
          ],
        },
      }),
    ).toEqual([
      '/data/attributes/flow_definition/steps/1/id',
      '/data/attributes/flow_definition/steps/0/cases/0/matches',
      '/data/attributes/flow_definition/steps/0/default',
      '/data/attributes/flow_definition/steps/1/validate',
    ]);
    expect(
      pointersOf({
        name: 'x',
        mode: 'ai',
        trigger_type: 'event',
        ai_instructions: 'Hi.',
        trigger_value: 'Bad Name',
      }),
    ).toEqual(['/data/attributes/trigger_value', '/data/attributes/settings/channel_id']);
  });

  it('reads an update as what was sent, the three required fields among it', () => {
    expect(pointersOf({ name: 'x' }, 'update')).toEqual([
      '/data/attributes/mode',
      '/data/attributes/trigger_type',
    ]);
    expect(readBotDefinition({ name: 'x', mode: 'ai', trigger_type: 'any_message' }, 'update')).toEqual({
      ok: true,
      value: { name: 'x', mode: 'ai', trigger_type: 'any_message' },
    });
  });
});

describe('patchedBot', () => {
  it('keeps what a PATCH does not send and merges settings one level deep', () => {
    const stored = created({
      ...SCHEDULE,
      settings: { ...SCHEDULE.settings, schedule_timezone: 'Europe/Berlin' },
    });
    const patched = patchedBot(stored, { name: 'Monday', settings: { channel_id: 3 } });
    expect(patched).toMatchObject({
      ok: true,
      value: {
        name: 'Monday',
        target_group_id: 4,
        settings: { schedule_cron: '0 9 * * 1', schedule_timezone: 'Europe/Berlin', channel_id: 3 },
      },
    });
  });

  it('refuses a bot as patched that breaks the rules of a create', () => {
    const stored = created(SCHEDULE);
    const patched = patchedBot(stored, { settings: { schedule_cron: null } });
    expect(patched.ok).toBe(false);
    expect(botProblems({ ...stored, target_group_id: null }).map((problem) => problem.pointer)).toEqual([
      '/data/attributes/target_group_id',
    ]);
  });
});
