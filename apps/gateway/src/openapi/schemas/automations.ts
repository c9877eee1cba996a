import {
  BOT_MODES,
  MAX_AI_TOKENS,
  BOT_TRIGGER_TYPES,
  FLOW_STEP_TYPES,
  MAX_BOT_NAME,
  MAX_FLOW_STEPS,
  MAX_WORKFLOW_NAME,
  MAX_WORKFLOW_STEPS,
  RE_ENTRIES,
  WORKFLOW_STEP_TYPES,
} from '@cms/contracts';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import { ID, NULLABLE_TEXT, NULLABLE_TIME, TIME, fixed, orNull } from './shapes';
import { WEBHOOKS_SCHEMAS } from './webhooks';

/**
 * Workflows, their runs and outcomes (extensions §12), as the automations service answers them
 * (apps/automations/src: workflow.resource.ts, runs/run.resource.ts) and the gateway passes them on.
 */

const STEP: SchemaObject = {
  type: 'object',
  required: ['id', 'type'],
  additionalProperties: true,
  description:
    'A step: a unique `id`, a `type` (`send`, `wait`, `branch`, `update_contact`, `exit`), the fields of its type (extensions §12), and `next` where it names the step that follows.',
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: [...WORKFLOW_STEP_TYPES] },
  },
};

const WORKFLOW_FIELDS: Record<string, SchemaObject> = {
  id: ID,
  name: { type: 'string', maxLength: MAX_WORKFLOW_NAME },
  enabled: {
    type: 'boolean',
    description: 'A disabled workflow starts nothing; its runs already going go on.',
  },
  trigger: fixed(
    {
      event: { type: 'string', description: 'The event name that starts a run.' },
      filter: {
        type: 'array',
        description:
          'Criteria (extensions §11) over the contact as the event left it, plus `event.data.<path>` of the event; `[]` holds for every contact.',
        items: { type: 'object', additionalProperties: true },
      },
    },
    'What starts a run.',
  ),
  steps: { type: 'array', minItems: 1, maxItems: MAX_WORKFLOW_STEPS, items: STEP },
  goal: orNull(
    fixed({
      event: { type: 'string' },
      within: {
        type: 'string',
        description: 'An ISO 8601 duration, at most P90D, from the start of the run.',
      },
    }),
    'The event that ends a run `goal_reached` and records an outcome, or null.',
  ),
  re_entry: {
    type: 'string',
    enum: [...RE_ENTRIES],
    description:
      '`after_exit` (default): no new run while the contact has one active or waiting; `never`: only one run per contact ever; `always`: a new event replaces a going run.',
  },
  version: {
    type: 'integer',
    minimum: 1,
    description:
      '1 at creation, one more for every change of `trigger`, `steps`, `goal` or `re_entry`; runs finish on the version they started with.',
  },
  created_at: TIME,
  updated_at: TIME,
};

/** Every status of a run (apps/automations/src/runs/run.resource.ts RUN_STATUSES). */
const RUN_STATUSES = ['active', 'waiting', 'completed', 'goal_reached', 'exited', 'failed'];

const HISTORY_ENTRY = fixed(
  {
    step: {
      ...NULLABLE_TEXT,
      description:
        'The step run; for an end from outside (goal reached, replaced, workflow deleted), the step the run was at, or null after its last step.',
    },
    at: TIME,
    result: {
      type: 'string',
      description:
        '`queued` (a send), `waited` (a wait ended), `event` or `timeout` (an `until_event` wait), the chosen step id (a branch), `updated`, `exited`; an end: `goal_reached`, `replaced`, `workflow_deleted`, `invalid_date`, `step_limit`.',
    },
    message_id: {
      type: ['string', 'null'],
      pattern: '^msg_[0-9a-f]{32}$',
      description: 'The message a send step made; null for any other entry.',
    } as unknown as SchemaObject,
  },
  'One step the run ran, or what ended it.',
);

const RUN_FIELDS: Record<string, SchemaObject> = {
  id: ID,
  workflow_id: ID,
  version: {
    type: 'integer',
    minimum: 1,
    description: 'The version of the workflow the run started with, and finishes on.',
  },
  contact_id: ID,
  status: {
    type: 'string',
    enum: RUN_STATUSES,
    description:
      '`active` or `waiting` while it goes on; it ends `completed`, `goal_reached`, `exited` or `failed`.',
  },
  current_step: { ...NULLABLE_TEXT, description: 'The step the run is at; null once it has ended.' },
  trigger_event_id: { ...ID, description: 'The event that started the run.' },
  started_at: TIME,
  ended_at: { ...NULLABLE_TIME, description: 'When the run ended; null while it goes on.' },
  history: { type: 'array', items: HISTORY_ENTRY, description: 'One entry per step run, in order.' },
};

/** The data of outcome.recorded: an outcome answers it, with its `created_at`. */
const OUTCOME_RECORDED_DATA = WEBHOOKS_SCHEMAS['OutcomeRecordedData']!;

const NULLABLE_ID = { type: ['integer', 'null'], minimum: 1 } as unknown as SchemaObject;
const NULLABLE_NUMBER = { type: ['number', 'null'] } as unknown as SchemaObject;

const FLOW_STEP: SchemaObject = {
  type: 'object',
  required: ['id', 'type'],
  additionalProperties: false,
  description:
    'A flow step (extensions §12, Flow mode): a unique `id`, a `type`, the fields of its type, and `next` where it names the step that follows.',
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: [...FLOW_STEP_TYPES] },
    next: { type: 'string' },
    text: { type: 'string', description: '`message` (sent as written) and `question`.' },
    template_id: {
      ...ID,
      description: '`message`: a template rendered with the contact, instead of `text`.',
    },
    save_as: {
      type: 'string',
      description: '`question`: the custom field the answer is stored in (`email` or `data.email`).',
    },
    validate: { type: 'string', description: '`question`: `email`, `phone`, `number` or `regex:<pattern>`.' },
    retry_text: {
      type: 'string',
      description: '`question`: sent after the first and the second failed answer.',
    },
    on: { type: 'string', description: '`branch`: `answer` or `data.<field>`.' },
    cases: {
      type: 'array',
      description:
        '`branch`: the first case whose `equals` (trimmed, any case) or `matches` holds names the next step.',
      items: {
        type: 'object',
        required: ['next'],
        additionalProperties: false,
        properties: {
          equals: { type: 'string' },
          matches: { type: 'string', description: 'A regular expression.' },
          next: { type: 'string' },
        },
      },
    },
    default: { type: 'string', description: '`branch`: the step when no case holds.' },
    tag_id: { ...ID, description: '`tag`: the tag attached.' },
  },
};

const BOT_FIELDS: Record<string, SchemaObject> = {
  id: ID,
  name: { type: 'string', maxLength: MAX_BOT_NAME },
  description: NULLABLE_TEXT,
  mode: { type: 'string', enum: [...BOT_MODES] },
  trigger_type: { type: 'string', enum: [...BOT_TRIGGER_TYPES] },
  trigger_value: { ...NULLABLE_TEXT, description: 'The keyword (`keyword`) or the event name (`event`).' },
  target_group_id: {
    ...NULLABLE_ID,
    description: 'An audience: the bot starts conversations only with its members.',
  },
  ai_instructions: { ...NULLABLE_TEXT, description: 'AI mode: the system message.' },
  ai_temperature: { ...NULLABLE_NUMBER, minimum: 0, maximum: 2 },
  ai_max_tokens: { type: ['integer', 'null'], minimum: 1, maximum: MAX_AI_TOKENS } as unknown as SchemaObject,
  flow_definition: orNull(
    fixed({ steps: { type: 'array', minItems: 1, maxItems: MAX_FLOW_STEPS, items: FLOW_STEP } }),
    'Flow mode: the steps.',
  ),
  settings: {
    type: 'object',
    additionalProperties: true,
    properties: {
      schedule_cron: { ...NULLABLE_TEXT, description: 'A five-field cron expression (`schedule`).' },
      schedule_timezone: {
        ...NULLABLE_TEXT,
        description: 'An IANA time zone; UTC when a cron is set without one.',
      },
      channel_id: {
        ...NULLABLE_ID,
        description: 'The channel `event` and `schedule` bots start on; it limits the others.',
      },
    },
  },
  enabled: { type: 'boolean', description: 'A disabled bot starts nothing; its active conversations go on.' },
  created_at: TIME,
  updated_at: TIME,
};

const CONVERSATION_FIELDS: Record<string, SchemaObject> = {
  id: ID,
  bot_id: ID,
  contact_id: ID,
  channel_id: ID,
  status: { type: 'string', enum: ['active', 'completed', 'expired', 'failed'] },
  end_reason: {
    type: ['string', 'null'],
    enum: [
      'completed',
      'expired',
      'opted_out',
      'invalid_answer',
      'ai_error',
      'ai_unavailable',
      'bot_deleted',
      null,
    ],
    description: 'Null while active.',
  } as unknown as SchemaObject,
  current_step: { ...NULLABLE_TEXT, description: 'Flow mode: the question the conversation waits at.' },
  messages: {
    type: 'array',
    items: fixed({
      direction: { type: 'string', enum: ['inbound', 'outbound'] },
      text: { ...NULLABLE_TEXT, description: 'Null for a template message.' },
      message_id: { type: ['string', 'null'], pattern: '^msg_[0-9a-f]{32}$' } as unknown as SchemaObject,
      at: TIME,
    }),
  },
  started_at: TIME,
  ended_at: NULLABLE_TIME,
};

export const AUTOMATIONS_SCHEMAS: Record<string, SchemaObject> = {
  Bot: fixed(
    BOT_FIELDS,
    'A bot (extensions §12, Bots): a flow or a model that answers contacts on their channel.',
  ),
  BotConversation: fixed(CONVERSATION_FIELDS, 'A conversation of a bot with a contact on one channel.'),
  Workflow: fixed(WORKFLOW_FIELDS, 'A workflow (extensions §12): the steps an event starts for a contact.'),
  WorkflowRun: fixed(RUN_FIELDS, 'A run of a workflow for a contact (extensions §12, Runs).'),
  Outcome: fixed(
    {
      ...(OUTCOME_RECORDED_DATA.properties as Record<string, SchemaObject>),
      created_at: { ...TIME, description: 'When the outcome was recorded.' },
    },
    'An outcome (extensions §12, Goals and outcomes): the data of its outcome.recorded webhook and when it was recorded.',
  ),
};
