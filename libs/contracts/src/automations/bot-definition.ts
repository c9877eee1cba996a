import { Cron } from 'croner';

import { EVENT_NAME_PATTERN } from '../contacts/event.bodies';
import { MAX_MESSAGE_TEXT_LENGTH } from '../messaging/messaging.records';
import { isId, jsonBytes, MAX_DATA_BYTES } from '../rules/field-rules';
import type { FilterProblem } from '../segments/filter-criteria';
import { isTimeZone, MAX_STEP_ID } from './workflow-definition';

/**
 * A bot's definition (extensions §12, "Bots") as `POST /api/v1/bots` and `PATCH /api/v1/bots/{id}`
 * carry it: each attribute read into the value that is stored and answered, or into every problem a
 * 422 names with its pointer. `readBotDefinition` reads what was sent; `botProblems` holds the rules
 * that join attributes (a flow bot has steps, a schedule bot a cron expression…), which a create and
 * a bot as patched must both pass.
 */

export const MAX_BOT_NAME = 255;
export const MAX_BOT_TEXT = MAX_MESSAGE_TEXT_LENGTH;
export const MAX_BOT_INSTRUCTIONS = 16_384;
export const MAX_FLOW_STEPS = 50;
export const MAX_AI_TOKENS = 32_768;

export const BOT_MODES = ['ai', 'flow'] as const;
export type BotMode = (typeof BOT_MODES)[number];
export const BOT_TRIGGER_TYPES = ['keyword', 'any_message', 'event', 'schedule'] as const;
export type BotTriggerType = (typeof BOT_TRIGGER_TYPES)[number];
export const FLOW_STEP_TYPES = ['message', 'question', 'branch', 'tag', 'end'] as const;
export type FlowStepType = (typeof FLOW_STEP_TYPES)[number];
export const ANSWER_CHECKS = ['email', 'phone', 'number'] as const;

export interface FlowBranchCase {
  equals?: string;
  matches?: string;
  next: string;
}

/** One step of a flow: the fields of its type, and `next` on any of them. */
export interface FlowStep {
  id: string;
  type: FlowStepType;
  next?: string;
  text?: string;
  template_id?: number;
  save_as?: string;
  validate?: string;
  retry_text?: string;
  on?: string;
  cases?: FlowBranchCase[];
  default?: string;
  tag_id?: number;
}

export interface BotSettings {
  schedule_cron?: string | null;
  schedule_timezone?: string | null;
  channel_id?: number | null;
  [other: string]: unknown;
}

export interface BotDefinition {
  name: string;
  description: string | null;
  mode: BotMode;
  trigger_type: BotTriggerType;
  trigger_value: string | null;
  target_group_id: number | null;
  ai_instructions: string | null;
  ai_temperature: number | null;
  ai_max_tokens: number | null;
  flow_definition: { steps: FlowStep[] } | null;
  settings: BotSettings;
  enabled: boolean;
}

export const BOT_ATTRIBUTES = [
  'name',
  'description',
  'mode',
  'trigger_type',
  'trigger_value',
  'target_group_id',
  'ai_instructions',
  'ai_temperature',
  'ai_max_tokens',
  'flow_definition',
  'settings',
  'enabled',
] as const satisfies ReadonlyArray<keyof BotDefinition>;

/** What a create leaves out is this. */
const CREATE_DEFAULTS: Omit<BotDefinition, 'name' | 'mode' | 'trigger_type'> = {
  description: null,
  trigger_value: null,
  target_group_id: null,
  ai_instructions: null,
  ai_temperature: null,
  ai_max_tokens: null,
  flow_definition: null,
  settings: {},
  enabled: true,
};

/** Both create and PATCH must carry these (extensions §12). */
const REQUIRED = ['name', 'mode', 'trigger_type'] as const;

export type BotDefinitionReading<T> = { ok: true; value: T } | { ok: false; problems: FilterProblem[] };

const AT = '/data/attributes';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A five-field cron expression croner reads. */
export function isBotCron(value: unknown): value is string {
  if (typeof value !== 'string' || value.trim().split(/\s+/).length !== 5) return false;
  try {
    new Cron(value.trim(), { paused: true });
    return true;
  } catch {
    return false;
  }
}

/** A schedule bot's next tick strictly after `after`, its cron read in `timeZone`; null when there is none. */
export function botScheduleNext(cron: string, timeZone: string, after: Date): Date | null {
  return new Cron(cron, { paused: true, timezone: timeZone }).nextRun(after);
}

/** A `regex:<pattern>` check's or a case's `matches` expression, compiled; null when it does not compile. */
export function compileAnswerPattern(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return null;
  }
}

/** `email` and `data.email` both name the custom field `email`. */
export function savedField(saveAs: string): string {
  return saveAs.startsWith('data.') ? saveAs.slice('data.'.length) : saveAs;
}

/**
 * Reads the attributes sent. A create has every attribute afterwards (defaults filled in) and passes
 * `botProblems`; an update has only the attributes sent, `name`, `mode` and `trigger_type` among them.
 */
export function readBotDefinition(body: unknown, mode: 'create'): BotDefinitionReading<BotDefinition>;
export function readBotDefinition(
  body: unknown,
  mode: 'update',
): BotDefinitionReading<Partial<BotDefinition>>;
export function readBotDefinition(
  body: unknown,
  mode: 'create' | 'update',
): BotDefinitionReading<Partial<BotDefinition>>;
export function readBotDefinition(
  body: unknown,
  mode: 'create' | 'update',
): BotDefinitionReading<Partial<BotDefinition>> {
  if (!isObject(body)) {
    return { ok: false, problems: [{ pointer: '/data', detail: 'The request body must be a JSON object.' }] };
  }
  const reader = new BotReader();
  const value = reader.attributes(body);
  if (reader.problems.length > 0) return { ok: false, problems: reader.problems };
  if (mode === 'update') return { ok: true, value };
  return patchedBot(null, value);
}

/**
 * The bot as a PATCH leaves it (the attributes not sent keep their values), checked with the rules of
 * a create; `stored` null reads `changes` as a create.
 */
export function patchedBot(
  stored: BotDefinition | null,
  changes: Partial<BotDefinition>,
): BotDefinitionReading<BotDefinition> {
  const merged = { ...CREATE_DEFAULTS, ...(stored ?? {}), ...changes } as BotDefinition;
  // Settings are merged one level deep, as a channel's metadata is: a key sent null clears it.
  if (stored !== null && changes.settings !== undefined)
    merged.settings = { ...stored.settings, ...changes.settings };
  const cron = merged.settings.schedule_cron;
  if (cron !== undefined && cron !== null && (merged.settings.schedule_timezone ?? null) === null)
    merged.settings = { ...merged.settings, schedule_timezone: 'UTC' };
  const problems = botProblems(merged);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: merged };
}

/** The rules that join attributes (extensions §12), each problem at the pointer of what is missing. */
export function botProblems(bot: BotDefinition): FilterProblem[] {
  const problems: FilterProblem[] = [];
  const fail = (pointer: string, detail: string) => problems.push({ pointer, detail });
  if (bot.mode === 'flow' && (bot.flow_definition === null || bot.flow_definition.steps.length === 0))
    fail(`${AT}/flow_definition/steps`, 'a flow bot needs flow_definition.steps (at least one step)');
  if (bot.mode === 'ai' && (bot.ai_instructions === null || bot.ai_instructions.trim() === ''))
    fail(`${AT}/ai_instructions`, 'an ai bot needs ai_instructions');
  const needsValue = bot.trigger_type === 'keyword' || bot.trigger_type === 'event';
  if (needsValue && bot.trigger_value === null)
    fail(`${AT}/trigger_value`, `a ${bot.trigger_type} bot needs trigger_value`);
  if (
    bot.trigger_type === 'event' &&
    bot.trigger_value !== null &&
    !EVENT_NAME_PATTERN.test(bot.trigger_value)
  )
    fail(
      `${AT}/trigger_value`,
      'trigger_value must be an event name: 1 to 100 lowercase letters, digits or . _ : -',
    );
  if (bot.trigger_type === 'schedule') {
    if (bot.settings.schedule_cron === undefined || bot.settings.schedule_cron === null)
      fail(`${AT}/settings/schedule_cron`, 'a schedule bot needs settings.schedule_cron');
    if (bot.target_group_id === null) fail(`${AT}/target_group_id`, 'a schedule bot needs target_group_id');
  }
  if ((bot.trigger_type === 'event' || bot.trigger_type === 'schedule') && !isId(bot.settings.channel_id))
    fail(`${AT}/settings/channel_id`, `a ${bot.trigger_type} bot needs settings.channel_id`);
  return problems;
}

/** The references a bot makes that another service must hold: each with its pointer. */
export interface BotReferences {
  targetGroupId: number | null;
  channelId: number | null;
  templates: Array<{ id: number; pointer: string }>;
  tags: Array<{ id: number; pointer: string }>;
}

export function botReferences(bot: Partial<BotDefinition>): BotReferences {
  const steps = bot.flow_definition?.steps ?? [];
  const at = `${AT}/flow_definition/steps`;
  return {
    targetGroupId: bot.target_group_id ?? null,
    channelId: isId(bot.settings?.channel_id) ? bot.settings.channel_id : null,
    templates: steps.flatMap((step, i) =>
      step.template_id === undefined ? [] : [{ id: step.template_id, pointer: `${at}/${i}/template_id` }],
    ),
    tags: steps.flatMap((step, i) =>
      step.tag_id === undefined ? [] : [{ id: step.tag_id, pointer: `${at}/${i}/tag_id` }],
    ),
  };
}

class BotReader {
  readonly problems: FilterProblem[] = [];

  private fail(pointer: string, detail: string): undefined {
    this.problems.push({ pointer, detail });
    return undefined;
  }

  attributes(body: Record<string, unknown>): Partial<BotDefinition> {
    for (const field of Object.keys(body)) {
      if (!(BOT_ATTRIBUTES as readonly string[]).includes(field))
        this.fail(`${AT}/${field}`, `${field} is not an attribute of a bot`);
    }
    for (const field of REQUIRED) {
      if (body[field] === undefined || body[field] === null)
        this.fail(`${AT}/${field}`, `${field} is required`);
    }
    const value: Partial<BotDefinition> = {};
    const sent = (field: string) => body[field] !== undefined && body[field] !== null;
    const nulled = (field: string) => body[field] === null;
    if (sent('name')) value.name = this.text(body.name, 'name', MAX_BOT_NAME);
    if (sent('mode')) value.mode = this.oneOf(body.mode, 'mode', BOT_MODES);
    if (sent('trigger_type'))
      value.trigger_type = this.oneOf(body.trigger_type, 'trigger_type', BOT_TRIGGER_TYPES);
    for (const [field, limit] of [
      ['description', 4096],
      ['trigger_value', 255],
      ['ai_instructions', MAX_BOT_INSTRUCTIONS],
    ] as const) {
      if (nulled(field)) value[field] = null;
      else if (sent(field)) value[field] = this.text(body[field], field, limit) ?? null;
    }
    if (value.trigger_value !== undefined && value.trigger_value !== null)
      value.trigger_value = value.trigger_value.trim();
    if (nulled('target_group_id')) value.target_group_id = null;
    else if (sent('target_group_id')) {
      if (!isId(body.target_group_id))
        this.fail(`${AT}/target_group_id`, 'target_group_id must be an audience id');
      else value.target_group_id = body.target_group_id;
    }
    if (nulled('ai_temperature')) value.ai_temperature = null;
    else if (sent('ai_temperature')) {
      const temperature = body.ai_temperature;
      if (typeof temperature !== 'number' || !(temperature >= 0 && temperature <= 2))
        this.fail(`${AT}/ai_temperature`, 'ai_temperature must be a number from 0 to 2');
      else value.ai_temperature = temperature;
    }
    if (nulled('ai_max_tokens')) value.ai_max_tokens = null;
    else if (sent('ai_max_tokens')) {
      const tokens = body.ai_max_tokens;
      if (!Number.isSafeInteger(tokens) || (tokens as number) < 1 || (tokens as number) > MAX_AI_TOKENS)
        this.fail(`${AT}/ai_max_tokens`, `ai_max_tokens must be an integer from 1 to ${MAX_AI_TOKENS}`);
      else value.ai_max_tokens = tokens as number;
    }
    if (nulled('flow_definition')) value.flow_definition = null;
    else if (sent('flow_definition')) value.flow_definition = this.flow(body.flow_definition);
    if (nulled('settings')) value.settings = {};
    else if (sent('settings')) value.settings = this.settings(body.settings);
    if (sent('enabled')) {
      if (typeof body.enabled !== 'boolean') this.fail(`${AT}/enabled`, 'enabled must be true or false');
      else value.enabled = body.enabled;
    }
    return value;
  }

  private text(value: unknown, field: string, limit: number, at = `${AT}/${field}`): string | undefined {
    if (typeof value !== 'string' || value.trim() === '' || value.length > limit)
      return this.fail(at, `${field} must be a string of 1 to ${limit} characters, not blank`);
    return value;
  }

  private oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T | undefined {
    if (!(allowed as readonly unknown[]).includes(value))
      return this.fail(`${AT}/${field}`, `${field} must be one of ${allowed.join(', ')}`);
    return value as T;
  }

  private settings(settings: unknown): BotSettings | undefined {
    const at = `${AT}/settings`;
    if (!isObject(settings)) return this.fail(at, 'settings must be an object');
    if (jsonBytes(settings) > MAX_DATA_BYTES) return this.fail(at, 'settings must be at most 64 KiB of JSON');
    const value: BotSettings = { ...settings };
    const cron = settings.schedule_cron;
    if (cron !== undefined && cron !== null) {
      if (!isBotCron(cron))
        this.fail(
          `${at}/schedule_cron`,
          'schedule_cron must be a cron expression of five fields, such as 0 9 * * 1',
        );
      else value.schedule_cron = cron.trim();
    }
    const zone = settings.schedule_timezone;
    if (zone !== undefined && zone !== null && !isTimeZone(zone))
      this.fail(
        `${at}/schedule_timezone`,
        'schedule_timezone must be an IANA time zone name, such as Europe/Berlin',
      );
    const channel = settings.channel_id;
    if (channel !== undefined && channel !== null && !isId(channel))
      this.fail(`${at}/channel_id`, 'channel_id must be a channel id');
    return value;
  }

  private flow(flow: unknown): { steps: FlowStep[] } | undefined {
    const at = `${AT}/flow_definition`;
    if (!isObject(flow)) return this.fail(at, 'flow_definition must be an object holding a steps array');
    for (const field of Object.keys(flow))
      if (field !== 'steps') this.fail(`${at}/${field}`, `${field} is not a field of flow_definition`);
    const steps = flow.steps;
    if (!Array.isArray(steps) || steps.length === 0 || steps.length > MAX_FLOW_STEPS)
      return this.fail(`${at}/steps`, `steps must be an array of 1 to ${MAX_FLOW_STEPS} steps`);
    const ids = new Set<string>();
    steps.forEach((step: unknown, i) => {
      const id = isObject(step) ? step.id : undefined;
      if (typeof id !== 'string' || id.trim() === '' || id.length > MAX_STEP_ID)
        this.fail(`${at}/steps/${i}/id`, `id is required: a string of 1 to ${MAX_STEP_ID} characters`);
      else if (ids.has(id)) this.fail(`${at}/steps/${i}/id`, `id "${id}" is the id of an earlier step`);
      else ids.add(id);
    });
    const read = steps.map((step: unknown, i) => this.step(step, `${at}/steps/${i}`, ids));
    return read.every((step) => step !== undefined) ? { steps: read as FlowStep[] } : undefined;
  }

  private step(step: unknown, at: string, ids: ReadonlySet<string>): FlowStep | undefined {
    if (!isObject(step)) return this.fail(at, 'a step must be an object');
    const type = step.type;
    if (!(FLOW_STEP_TYPES as readonly unknown[]).includes(type))
      return this.fail(`${at}/type`, `type must be one of ${FLOW_STEP_TYPES.join(', ')}`);
    const known: Record<FlowStepType, string[]> = {
      message: ['text', 'template_id'],
      question: ['text', 'save_as', 'validate', 'retry_text'],
      branch: ['on', 'cases', 'default'],
      tag: ['tag_id'],
      end: [],
    };
    const fields = ['id', 'type', 'next', ...known[type as FlowStepType]];
    const before = this.problems.length;
    for (const field of Object.keys(step))
      if (!fields.includes(field))
        this.fail(`${at}/${field}`, `${field} is not a field of a ${String(type)} step`);
    const value: FlowStep = { id: step.id as string, type: type as FlowStepType };
    const reference = (field: string, target: unknown): string | undefined => {
      if (typeof target !== 'string' || !ids.has(target))
        return this.fail(`${at}/${field}`, `${field} must be the id of a step of the flow`);
      return target;
    };
    if (step.next !== undefined) value.next = reference('next', step.next);
    switch (type as FlowStepType) {
      case 'message':
        if ((step.text === undefined) === (step.template_id === undefined))
          this.fail(`${at}/text`, 'a message step has text or template_id, one of them');
        else if (step.text !== undefined)
          value.text = this.text(step.text, 'text', MAX_BOT_TEXT, `${at}/text`);
        else if (!isId(step.template_id)) this.fail(`${at}/template_id`, 'template_id must be a template id');
        else value.template_id = step.template_id;
        break;
      case 'question':
        value.text = this.text(step.text, 'text', MAX_BOT_TEXT, `${at}/text`);
        if (step.save_as !== undefined) {
          const field = typeof step.save_as === 'string' ? savedField(step.save_as.trim()) : '';
          if (!/^[A-Za-z_][A-Za-z0-9_]{0,99}$/.test(field))
            this.fail(`${at}/save_as`, 'save_as must name a custom field, such as email or data.email');
          else value.save_as = step.save_as as string;
        }
        if (step.validate !== undefined) {
          const check = step.validate;
          const known = typeof check === 'string' && (ANSWER_CHECKS as readonly string[]).includes(check);
          const pattern =
            typeof check === 'string' && check.startsWith('regex:')
              ? compileAnswerPattern(check.slice(6))
              : null;
          if (!known && pattern === null)
            this.fail(
              `${at}/validate`,
              'validate must be email, phone, number or regex:<a pattern that compiles>',
            );
          else value.validate = check as string;
        }
        if (step.retry_text !== undefined)
          value.retry_text = this.text(step.retry_text, 'retry_text', MAX_BOT_TEXT, `${at}/retry_text`);
        break;
      case 'branch': {
        if (
          step.on !== 'answer' &&
          !(typeof step.on === 'string' && /^data\.[A-Za-z_][A-Za-z0-9_]{0,99}$/.test(step.on))
        )
          this.fail(`${at}/on`, 'on must be answer or data.<field>');
        else value.on = step.on;
        if (!Array.isArray(step.cases) || step.cases.length === 0 || step.cases.length > MAX_FLOW_STEPS) {
          this.fail(`${at}/cases`, `cases must be an array of 1 to ${MAX_FLOW_STEPS} cases`);
        } else {
          value.cases = step.cases.map((item: unknown, k) => this.branchCase(item, `${at}/cases/${k}`, ids));
        }
        if (step.default !== undefined) value.default = reference('default', step.default);
        break;
      }
      case 'tag':
        if (!isId(step.tag_id)) this.fail(`${at}/tag_id`, 'tag_id must be a tag id');
        else value.tag_id = step.tag_id;
        break;
      case 'end':
        break;
    }
    return this.problems.length === before ? value : undefined;
  }

  private branchCase(item: unknown, at: string, ids: ReadonlySet<string>): FlowBranchCase {
    const value = { next: '' } as FlowBranchCase;
    if (!isObject(item)) {
      this.fail(at, 'a case is an object with equals or matches, and next');
      return value;
    }
    for (const field of Object.keys(item))
      if (!['equals', 'matches', 'next'].includes(field))
        this.fail(`${at}/${field}`, `${field} is not a field of a case`);
    if ((item.equals === undefined) === (item.matches === undefined))
      this.fail(at, 'a case has equals or matches, one of them');
    else if (item.equals !== undefined) {
      if (typeof item.equals !== 'string') this.fail(`${at}/equals`, 'equals must be a string');
      else value.equals = item.equals;
    } else if (typeof item.matches !== 'string' || compileAnswerPattern(item.matches) === null) {
      this.fail(`${at}/matches`, 'matches must be a regular expression that compiles');
    } else value.matches = item.matches;
    if (typeof item.next !== 'string' || !ids.has(item.next))
      this.fail(`${at}/next`, 'next must be the id of a step of the flow');
    else value.next = item.next;
    return value;
  }
}
