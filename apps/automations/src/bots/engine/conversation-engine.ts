import {
  compileAnswerPattern,
  deterministicId,
  messageIdOfRecord,
  savedField,
  type BotDefinition,
  type FlowStep,
} from '@cms/contracts';

/**
 * The state machine of a bot conversation (extensions §12, "Bots"): from a conversation and what
 * happened to it, its next state and the effects the service must carry out. Pure: every time is the
 * one of the record that moved it, and every id an effect carries is derived from the conversation id
 * and how many messages it sent, so a rebuild makes the same ones.
 */

/** A flow that runs this many steps without waiting for an answer ends: a `next` loop with no question. */
export const MAX_FLOW_STEPS_WITHOUT_WAITING = 100;
/** The third answer that fails a question's `validate` ends the conversation. */
export const MAX_FAILED_ANSWERS = 3;

export type ConversationStatus = 'active' | 'completed' | 'expired' | 'failed';
export type EndReason =
  'completed' | 'expired' | 'opted_out' | 'invalid_answer' | 'ai_error' | 'ai_unavailable' | 'bot_deleted';

export interface ConversationMessage {
  direction: 'inbound' | 'outbound';
  /** What was written: an inbound text, a bot's text; null for a template message. */
  text: string | null;
  message_id: string | null;
  at: string;
}

export interface ConversationState {
  id: number;
  bot_id: number;
  contact_id: number;
  channel_id: number;
  status: ConversationStatus;
  end_reason: EndReason | null;
  current_step: string | null;
  messages: ConversationMessage[];
  started_at: string;
  ended_at: string | null;
  /** The later of its last inbound and last bot message. */
  last_activity_at: string;
  /** Failed answers to the question it waits at. */
  failed_answers: number;
  /** The last answer that passed (what `branch` on `answer` reads). */
  answer: string | null;
  /** The contact's custom fields as the conversation knows them (its answers merged in). */
  data: Record<string, unknown>;
  /** Inbound messages whose model answer is awaited (AI mode). */
  awaiting: string[];
  /** Messages it asked messaging for, the ids of the next one derive from it. */
  sent: number;
}

/** The bot a conversation runs, as stored. */
export interface ConversationBot extends Pick<
  BotDefinition,
  'name' | 'mode' | 'flow_definition' | 'ai_instructions'
> {
  id: number;
}

export type ConversationEffect =
  | {
      type: 'send';
      /** The id of the message.send.requested record. */
      request_id: string;
      message_id: string;
      text?: string;
      template_id?: number;
    }
  | { type: 'save_answer'; request_id: string; field: string; value: string }
  | { type: 'tag'; request_id: string; tag_id: number }
  /** Ask the model for the answer to `inbound_message_id`. */
  | { type: 'ask_model'; inbound_message_id: string }
  /** (Re)arm the conversation's expiry from `last_activity_at`; cleared when it ends or awaits the model. */
  | { type: 'arm_expiry' }
  | { type: 'clear_expiry' };

export interface Moved {
  state: ConversationState;
  effects: ConversationEffect[];
}

export interface ConversationStart {
  id: number;
  bot_id: number;
  contact_id: number;
  channel_id: number;
  data: Record<string, unknown>;
  at: string;
}

export interface Inbound {
  message_id: string;
  text: string | null;
  at: string;
  /** The contact's custom fields as the inbound record carried them. */
  data: Record<string, unknown> | null;
}

class Mover {
  readonly effects: ConversationEffect[] = [];

  constructor(
    public state: ConversationState,
    private readonly bot: ConversationBot,
    private readonly at: string,
  ) {}

  private set(changes: Partial<ConversationState>): void {
    this.state = { ...this.state, ...changes };
  }

  private send(content: { text: string } | { template_id: number }): void {
    const request_id = deterministicId('bot-conversation', this.state.id, 'send', this.state.sent);
    const message_id = messageIdOfRecord(request_id);
    this.effects.push({ type: 'send', request_id, message_id, ...content });
    this.set({
      sent: this.state.sent + 1,
      last_activity_at: this.at,
      messages: [
        ...this.state.messages,
        { direction: 'outbound', text: 'text' in content ? content.text : null, message_id, at: this.at },
      ],
    });
  }

  heard(inbound: Inbound): void {
    this.set({
      last_activity_at: this.at,
      messages: [
        ...this.state.messages,
        { direction: 'inbound', text: inbound.text, message_id: inbound.message_id, at: this.at },
      ],
      ...(inbound.data === null ? {} : { data: { ...inbound.data } }),
    });
  }

  end(status: Exclude<ConversationStatus, 'active'>, reason: EndReason): void {
    this.set({ status, end_reason: reason, ended_at: this.at, current_step: null, awaiting: [] });
    this.effects.push({ type: 'clear_expiry' });
  }

  private get steps(): FlowStep[] {
    return this.bot.flow_definition?.steps ?? [];
  }

  private stepAfter(step: FlowStep): FlowStep | undefined {
    if (step.next !== undefined) return this.steps.find((next) => next.id === step.next);
    return this.steps[this.steps.indexOf(step) + 1];
  }

  /** Runs the flow from `step` until a question waits or it ends. */
  runFrom(first: FlowStep | undefined): void {
    let step = first;
    for (let ran = 0; step !== undefined; ran += 1) {
      if (ran === MAX_FLOW_STEPS_WITHOUT_WAITING) return this.end('completed', 'completed');
      switch (step.type) {
        case 'message':
          this.send(step.text !== undefined ? { text: step.text } : { template_id: step.template_id! });
          break;
        case 'question':
          this.send({ text: step.text! });
          this.set({ current_step: step.id, failed_answers: 0 });
          this.effects.push({ type: 'arm_expiry' });
          return;
        case 'branch': {
          const target = this.branch(step);
          step = target === undefined ? this.stepAfter(step) : this.steps.find((next) => next.id === target);
          continue;
        }
        case 'tag':
          this.effects.push({
            type: 'tag',
            request_id: deterministicId('bot-conversation', this.state.id, 'tag', step.id, this.state.sent),
            tag_id: step.tag_id!,
          });
          break;
        case 'end':
          return this.end('completed', 'completed');
      }
      step = this.stepAfter(step);
    }
    this.end('completed', 'completed');
  }

  private branch(step: FlowStep): string | undefined {
    const field = step.on === 'answer' ? undefined : step.on!.slice('data.'.length);
    const raw = field === undefined ? this.state.answer : this.state.data[field];
    const value =
      raw === null || raw === undefined ? '' : typeof raw === 'string' ? raw : JSON.stringify(raw);
    const matched = (step.cases ?? []).find((item) =>
      item.equals !== undefined
        ? value.trim().toLowerCase() === item.equals.trim().toLowerCase()
        : (compileAnswerPattern(item.matches!)?.test(value) ?? false),
    );
    return matched?.next ?? step.default;
  }

  /** The contact's answer to the question the conversation waits at. */
  answered(text: string | null): void {
    const step = this.steps.find((candidate) => candidate.id === this.state.current_step);
    if (step === undefined || step.type !== 'question') return this.runFrom(this.steps[0]);
    const answer = (text ?? '').trim();
    if (!passes(step.validate, answer)) {
      const failed = this.state.failed_answers + 1;
      if (failed >= MAX_FAILED_ANSWERS) return this.end('failed', 'invalid_answer');
      this.set({ failed_answers: failed });
      this.send({ text: step.retry_text ?? step.text! });
      this.effects.push({ type: 'arm_expiry' });
      return;
    }
    this.set({ answer, failed_answers: 0, current_step: null });
    if (step.save_as !== undefined) {
      const field = savedField(step.save_as.trim());
      this.set({ data: { ...this.state.data, [field]: answer } });
      this.effects.push({
        type: 'save_answer',
        request_id: deterministicId(
          'bot-conversation',
          this.state.id,
          'answer',
          step.id,
          this.state.messages.length,
        ),
        field,
        value: answer,
      });
    }
    this.runFrom(this.stepAfter(step));
  }

  askModel(inboundMessageId: string): void {
    this.set({ awaiting: [...this.state.awaiting, inboundMessageId] });
    this.effects.push({ type: 'clear_expiry' }, { type: 'ask_model', inbound_message_id: inboundMessageId });
  }

  modelAnswered(inboundMessageId: string, content: string): void {
    this.set({ awaiting: this.state.awaiting.filter((id) => id !== inboundMessageId) });
    this.send({ text: content });
    if (this.state.awaiting.length === 0) this.effects.push({ type: 'arm_expiry' });
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ().-]{5,30}$/;

/** Whether an answer passes a question's `validate` (absent: every answer passes). */
export function passes(check: string | undefined, answer: string): boolean {
  if (check === undefined) return true;
  if (answer === '') return false;
  if (check === 'email') return EMAIL.test(answer);
  if (check === 'phone') return PHONE.test(answer) && answer.replace(/[^0-9]/g, '').length >= 6;
  if (check === 'number') return /^[-+]?(\d+([.,]\d+)?|[.,]\d+)$/.test(answer);
  if (check.startsWith('regex:'))
    return compileAnswerPattern(check.slice('regex:'.length))?.test(answer) ?? false;
  return false;
}

function newConversation(start: ConversationStart): ConversationState {
  return {
    id: start.id,
    bot_id: start.bot_id,
    contact_id: start.contact_id,
    channel_id: start.channel_id,
    status: 'active',
    end_reason: null,
    current_step: null,
    messages: [],
    started_at: start.at,
    ended_at: null,
    last_activity_at: start.at,
    failed_answers: 0,
    answer: null,
    data: { ...start.data },
    awaiting: [],
    sent: 0,
  };
}

/**
 * A new conversation: an inbound message that started it is its first message (a flow starts at its
 * first step, a model answers it); an event or a schedule starts one with no message (a flow runs, a
 * model opens it).
 */
export function startConversation(
  bot: ConversationBot,
  start: ConversationStart,
  inbound: Inbound | null,
): Moved {
  const mover = new Mover(newConversation(start), bot, start.at);
  if (inbound !== null) mover.heard(inbound);
  if (bot.mode === 'flow') mover.runFrom(bot.flow_definition?.steps[0]);
  else mover.askModel(inbound?.message_id ?? `start:${start.id}`);
  return { state: mover.state, effects: mover.effects };
}

/** The contact wrote on the conversation's channel. */
export function inboundMessage(bot: ConversationBot, state: ConversationState, inbound: Inbound): Moved {
  if (state.status !== 'active') return { state, effects: [] };
  const mover = new Mover(state, bot, inbound.at);
  mover.heard(inbound);
  if (bot.mode === 'flow') mover.answered(inbound.text);
  else mover.askModel(inbound.message_id);
  return { state: mover.state, effects: mover.effects };
}

/** The model's answer to an inbound message, or why there is none. */
export function modelAnswer(
  bot: ConversationBot,
  state: ConversationState,
  answer: {
    inbound_message_id: string;
    content: string | null;
    failure: 'ai_error' | 'ai_unavailable' | null;
    at: string;
  },
): Moved {
  if (state.status !== 'active' || !state.awaiting.includes(answer.inbound_message_id))
    return { state, effects: [] };
  const mover = new Mover(state, bot, answer.at);
  if (answer.content === null) mover.end('failed', answer.failure ?? 'ai_error');
  else mover.modelAnswered(answer.inbound_message_id, answer.content);
  return { state: mover.state, effects: mover.effects };
}

/** An outside end: an opt-out keyword, the bot deleted. */
export function endConversation(
  bot: ConversationBot,
  state: ConversationState,
  reason: 'opted_out' | 'bot_deleted',
  at: string,
): Moved {
  if (state.status !== 'active') return { state, effects: [] };
  const mover = new Mover(state, bot, at);
  mover.end('completed', reason);
  return { state: mover.state, effects: mover.effects };
}

/**
 * The expiry timer fell due at `at`: the conversation ends `expired` when `timeoutMs` has passed since
 * its last activity and no model answer is awaited; otherwise it is armed again.
 */
export function expiryDue(
  bot: ConversationBot,
  state: ConversationState,
  timeoutMs: number,
  at: string,
): Moved {
  if (state.status !== 'active' || state.awaiting.length > 0) return { state, effects: [] };
  if (Date.parse(state.last_activity_at) + timeoutMs > Date.parse(at))
    return { state, effects: [{ type: 'arm_expiry' }] };
  const mover = new Mover(state, bot, at);
  mover.end('expired', 'expired');
  return { state: mover.state, effects: mover.effects };
}
