import type { FlowStep } from '@cms/contracts';

import {
  endConversation,
  expiryDue,
  inboundMessage,
  modelAnswer,
  passes,
  startConversation,
  type ConversationBot,
  type ConversationState,
} from './conversation-engine';

const AT = '2026-11-28T10:00:00.000Z';
const LATER = '2026-11-28T10:05:00.000Z';

function flowBot(steps: FlowStep[]): ConversationBot {
  return { id: 7, name: 'Signup', mode: 'flow', flow_definition: { steps }, ai_instructions: null };
}

const SIGNUP: FlowStep[] = [
  { id: 'hello', type: 'message', text: 'Hi!' },
  {
    id: 'ask',
    type: 'question',
    text: 'Your email?',
    save_as: 'email',
    validate: 'email',
    retry_text: 'That is not an email.',
  },
  { id: 'route', type: 'branch', on: 'data.plan', cases: [{ equals: 'PRO', next: 'pro' }], default: 'bye' },
  { id: 'pro', type: 'tag', tag_id: 3 },
  { id: 'bye', type: 'message', text: 'Thanks!' },
];

function started(steps = SIGNUP, data: Record<string, unknown> = {}) {
  return startConversation(
    flowBot(steps),
    { id: 257, bot_id: 7, contact_id: 11, channel_id: 5, data, at: AT },
    { message_id: 'msg_in1', text: 'menu', at: AT, data },
  );
}

function answer(state: ConversationState, text: string, steps = SIGNUP) {
  return inboundMessage(flowBot(steps), state, { message_id: `msg_${text}`, text, at: LATER, data: null });
}

describe('a flow conversation', () => {
  it('sends the first steps and waits at the question, with the starting message first', () => {
    const { state, effects } = started();
    expect(state.status).toBe('active');
    expect(state.current_step).toBe('ask');
    expect(state.messages.map((message) => [message.direction, message.text])).toEqual([
      ['inbound', 'menu'],
      ['outbound', 'Hi!'],
      ['outbound', 'Your email?'],
    ]);
    expect(effects.filter((effect) => effect.type === 'send')).toHaveLength(2);
    expect(effects.at(-1)).toEqual({ type: 'arm_expiry' });
  });

  it('makes the same ids when decided again', () => {
    expect(started().effects).toEqual(started().effects);
  });

  it('saves an answer that passes, branches on the data and tags, then completes', () => {
    const { state } = started(SIGNUP, { plan: 'pro' });
    const moved = answer(state, ' ann@example.com ');
    expect(moved.effects).toContainEqual(
      expect.objectContaining({ type: 'save_answer', field: 'email', value: 'ann@example.com' }),
    );
    expect(moved.effects).toContainEqual(expect.objectContaining({ type: 'tag', tag_id: 3 }));
    expect(moved.state).toMatchObject({ status: 'completed', end_reason: 'completed', current_step: null });
    expect(moved.state.data).toEqual({ plan: 'pro', email: 'ann@example.com' });
    expect(moved.state.messages.at(-1)).toMatchObject({ direction: 'outbound', text: 'Thanks!' });
  });

  it('goes to the default when no case holds', () => {
    const moved = answer(started(SIGNUP, { plan: 'free' }).state, 'ann@example.com');
    expect(moved.effects.some((effect) => effect.type === 'tag')).toBe(false);
    expect(moved.state.status).toBe('completed');
  });

  it('sends retry_text after the first and second failed answers and ends at the third', () => {
    let { state } = started();
    for (const attempt of [1, 2]) {
      const moved = answer(state, `not an email ${attempt}`);
      expect(moved.state.status).toBe('active');
      expect(moved.state.messages.at(-1)).toMatchObject({ text: 'That is not an email.' });
      state = moved.state;
    }
    const third = answer(state, 'still not');
    expect(third.state).toMatchObject({ status: 'failed', end_reason: 'invalid_answer' });
    expect(third.effects).toContainEqual({ type: 'clear_expiry' });
  });

  it('ends on an opt-out and then takes nothing more', () => {
    const ended = endConversation(flowBot(SIGNUP), started().state, 'opted_out', LATER);
    expect(ended.state).toMatchObject({ status: 'completed', end_reason: 'opted_out', ended_at: LATER });
    expect(answer(ended.state, 'ann@example.com').effects).toEqual([]);
  });

  it('ends a next loop without a question after a bounded number of steps', () => {
    const loop: FlowStep[] = [{ id: 'a', type: 'message', text: 'again', next: 'a' }];
    const { state } = started(loop);
    expect(state.status).toBe('completed');
  });
});

describe('an AI conversation', () => {
  const bot: ConversationBot = {
    id: 8,
    name: 'Helper',
    mode: 'ai',
    flow_definition: null,
    ai_instructions: 'Be brief.',
  };
  const start = () =>
    startConversation(
      bot,
      { id: 513, bot_id: 8, contact_id: 11, channel_id: 5, data: {}, at: AT },
      { message_id: 'msg_q', text: 'hello?', at: AT, data: {} },
    );

  it('asks the model for each inbound message and holds the expiry meanwhile', () => {
    const { state, effects } = start();
    expect(effects).toEqual([{ type: 'clear_expiry' }, { type: 'ask_model', inbound_message_id: 'msg_q' }]);
    expect(state.awaiting).toEqual(['msg_q']);
    expect(expiryDue(bot, state, 1000, LATER).effects).toEqual([]);
  });

  it('sends the answer and arms the expiry; an answer given twice is sent once', () => {
    const moved = modelAnswer(bot, start().state, {
      inbound_message_id: 'msg_q',
      content: 'Hi.',
      failure: null,
      at: LATER,
    });
    expect(moved.state.messages.at(-1)).toMatchObject({ direction: 'outbound', text: 'Hi.' });
    expect(moved.effects.at(-1)).toEqual({ type: 'arm_expiry' });
    expect(
      modelAnswer(bot, moved.state, { inbound_message_id: 'msg_q', content: 'Hi.', failure: null, at: LATER })
        .effects,
    ).toEqual([]);
  });

  it('fails with the reason the model worker recorded', () => {
    const moved = modelAnswer(bot, start().state, {
      inbound_message_id: 'msg_q',
      content: null,
      failure: 'ai_unavailable',
      at: LATER,
    });
    expect(moved.state).toMatchObject({ status: 'failed', end_reason: 'ai_unavailable' });
  });
});

describe('expiry', () => {
  it('ends a conversation quiet for the timeout, and arms again one that was not', () => {
    const { state } = started();
    expect(expiryDue(flowBot(SIGNUP), state, 10 * 60_000, LATER).effects).toEqual([{ type: 'arm_expiry' }]);
    expect(expiryDue(flowBot(SIGNUP), state, 60_000, LATER).state).toMatchObject({
      status: 'expired',
      end_reason: 'expired',
    });
  });
});

describe('answer checks', () => {
  it.each([
    ['email', 'a@b.co', true],
    ['email', 'a@b', false],
    ['phone', '+44 20 7946 0958', true],
    ['phone', 'call me', false],
    ['number', '12.5', true],
    ['number', '12a', false],
    ['regex:^[A-Z]{3}$', 'ABC', true],
    ['regex:^[A-Z]{3}$', 'ABCD', false],
  ])('%s on %p is %p', (check, text, result) => {
    expect(passes(check, text)).toBe(result);
  });
});
