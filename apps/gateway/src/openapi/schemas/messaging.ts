import {
  ALERT_COMPARATORS,
  ALERT_ID_PATTERN,
  ALERT_METRICS,
  ALERT_STATUSES,
  CHANNEL_PROVIDERS,
  CHANNEL_STATUSES,
  CHANNEL_TYPES,
  FAILURE_CODES,
  MESSAGE_PURPOSES,
  SUPPRESSION_ID_PATTERN,
  SUPPRESSION_LIST_REASONS,
  SUPPRESSION_REASONS,
  SUPPRESSION_SOURCES,
} from '@cms/contracts';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import { COUNT, FREE_FORM, ID, TIME, described, fixed, orNull, ref, refOrNull } from './shapes';

/*
 * The shapes of the messaging operations (extensions §8–§10), as the messaging service's resource
 * mappers write them: channelResource, templateResource, the render answer, messageResource (with
 * linksOf), suppressionResource, alertRuleResource, alertResource, and the push subscription answer.
 */

function oneOf(values: readonly string[], description?: string): SchemaObject {
  return { type: 'string', enum: [...values], ...(description !== undefined ? { description } : {}) };
}

const CHANNEL_TYPE = oneOf(CHANNEL_TYPES);
const FAILURE_CODE = oneOf(Object.keys(FAILURE_CODES));
const MESSAGE_ID: SchemaObject = { type: 'string', pattern: '^msg_[0-9a-f]{32}$' };
const MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed', 'suppressed', 'received'] as const;

const CHANNEL = fixed(
  {
    id: ID,
    type: CHANNEL_TYPE,
    provider: oneOf(CHANNEL_PROVIDERS),
    name: { type: 'string' },
    status: oneOf(
      CHANNEL_STATUSES,
      '`failing` is set by the service when the provider refuses the credentials; a successful send sets it back to `active`.',
    ),
    is_default: described(
      { type: 'boolean' },
      'The one default channel of its type (the first channel of a type is its default).',
    ),
    credentials: {
      type: 'object',
      description:
        'Every credential masked: `••••` and its last four characters (`••••` alone for a value shorter than 8 characters). `{}` when none were given.',
      additionalProperties: { type: 'string', pattern: '^••••' },
    },
    metadata: described(FREE_FORM, 'As sent (merged one level deep by PATCH).'),
    callback_url: described(
      { type: 'string' },
      '`<PUBLIC_BASE_URL>/webhook/provider/<token>`: the address to give the provider for status callbacks and inbound messages.',
    ),
    created_at: TIME,
    updated_at: TIME,
  },
  'A sending channel (extensions §9). Secrets are never answered back.',
);

const PROVIDER_TEMPLATE = fixed(
  {
    name: { type: 'string' },
    language: { type: 'string' },
    parameters: { type: 'array', items: { type: 'string' }, description: 'Liquid, rendered like `body`.' },
  },
  'An approved WhatsApp template.',
);

const TEMPLATE = fixed(
  {
    id: ID,
    name: { type: 'string' },
    channel: CHANNEL_TYPE,
    language: described({ type: 'string' }, 'BCP 47 (default `en`).'),
    body: orNull({ type: 'string' }, 'Liquid. Null only with a `provider_template`.'),
    subject: orNull({ type: 'string' }, 'Email only.'),
    html: orNull({ type: 'string' }, 'Email only.'),
    provider_template: refOrNull('ProviderTemplate', 'WhatsApp only.'),
    track_links: { type: 'boolean' },
    created_at: TIME,
    updated_at: TIME,
  },
  'A message template (extensions §9).',
);

const RENDERED_TEMPLATE = fixed(
  {
    subject: orNull({ type: 'string' }),
    body: orNull({ type: 'string' }),
    html: orNull({ type: 'string' }),
  },
  'The template rendered as a send would render it; nothing is sent or recorded.',
);

const MESSAGE_WORKFLOW = fixed(
  { id: ID, name: { type: 'string' }, run_id: ID, step: { type: 'string' } },
  'The workflow run that sent the message.',
);

const MESSAGE_BOT = fixed(
  {
    id: described(ID, 'The bot.'),
    name: described({ type: 'string' }, "The bot's name when the message was made."),
    conversation_id: described(ID, 'The conversation the message belongs to.'),
  },
  'The bot that sent the message (extensions §12, What bots send).',
);

const MESSAGE_FAILURE = fixed(
  {
    code: FAILURE_CODE,
    reason: described({ type: 'string' }, 'What the code means, written for the customer.'),
    fix: described({ type: 'string' }, 'What to do about it.'),
    provider_code: orNull({ type: 'string' }, "The provider's own code."),
  },
  'Why the message failed (extensions §9, Failure codes).',
);

const MESSAGE_SUPPRESSION = fixed(
  { reason: oneOf(SUPPRESSION_REASONS), detail: { type: 'string' } },
  'Why the message was not sent (extensions §9, Who may be messaged).',
);

const MESSAGE_HISTORY_ENTRY: SchemaObject = {
  type: 'object',
  description: 'A status change, late ones included.',
  required: ['status', 'at', 'source'],
  additionalProperties: false,
  properties: {
    status: oneOf(MESSAGE_STATUSES),
    at: TIME,
    source: described(
      { type: 'string' },
      'Who reported it: `api`, `service` (the send worker or the route), `sandbox` or `provider`.',
    ),
    ignored: described(
      { type: 'boolean', enum: [true] },
      'Present (true) when the change came too late to move the status: it changed nothing.',
    ),
  },
};

const MESSAGE_LINK = fixed(
  {
    url: described({ type: 'string' }, 'The original URL.'),
    link_index: described(COUNT, 'From 0, in the order of the body.'),
    clicks: described(COUNT, 'Human clicks.'),
    bot_clicks: described(COUNT, 'Clicks of link scanners, prefetchers, or within 2 seconds of `sent_at`.'),
    first_clicked_at: orNull(TIME),
    last_clicked_at: orNull(TIME),
  },
  'A tracked link of the message (extensions §10).',
);

const MESSAGE_FIELDS: Record<string, SchemaObject> = {
  id: described(MESSAGE_ID, '`msg_` and 32 lower-case hexadecimal digits.'),
  direction: oneOf(['outbound', 'inbound']),
  status: oneOf(MESSAGE_STATUSES, 'Inbound messages are `received`.'),
  channel: CHANNEL_TYPE,
  channel_id: ID,
  recipient: orNull(
    { type: 'string' },
    'The address it went to (outbound; null until the send worker resolved it) or came from (inbound).',
  ),
  template: orNull(
    { type: 'string' },
    "The template's name; null for inbound messages, keyword replies and a bot's text sent as written.",
  ),
  contact_id: orNull(ID, 'Null for an inbound message from a sender no contact matches.'),
  workflow: refOrNull('MessageWorkflow'),
  campaign_id: orNull(ID),
  test: described(
    { type: 'boolean' },
    "True for the message of a notification's test send (extensions §13); false for every other message.",
  ),
  bot: refOrNull('MessageBot', 'The bot that sent it; null for every other message, inbound ones included.'),
  purpose: {
    type: ['string', 'null'],
    enum: [...MESSAGE_PURPOSES, null],
    description:
      "As the send said (`transactional` unless it said `marketing`; a bot's messages are transactional); null for inbound messages.",
  } as unknown as SchemaObject,
  fallback_from: orNull(MESSAGE_ID, 'The message of the previous route step this one replaces.'),
  failure: refOrNull('MessageFailure'),
  suppression: refOrNull('MessageSuppression'),
  body: orNull(
    { type: 'string' },
    "As rendered (outbound; a bot's text as written) or received (inbound); null until rendered.",
  ),
  sent_at: orNull(TIME),
  delivered_at: orNull(TIME),
  read_at: orNull(TIME),
  failed_at: orNull(TIME),
  history: { type: 'array', items: ref('MessageHistoryEntry') },
  links: { type: 'array', items: ref('MessageLink'), description: 'In link order.' },
  created_at: TIME,
  updated_at: TIME,
};

const MESSAGE = fixed(MESSAGE_FIELDS, 'A message sent or received (extensions §9, Messages).');

/** The sandbox's inbound message as its 202 answers it: just received, from `from`. */
const INBOUND_MESSAGE = fixed(
  {
    ...MESSAGE_FIELDS,
    direction: oneOf(['inbound']),
    status: oneOf(['received']),
    recipient: described({ type: 'string' }, 'The sender (`from`).'),
    template: { type: 'null' },
    bot: { type: 'null' },
    purpose: { type: 'null' },
    body: described({ type: 'string' }, 'The text received.'),
  },
  'An inbound message, as recorded.',
);

const SUPPRESSION = fixed(
  {
    id: { type: 'string', pattern: SUPPRESSION_ID_PATTERN.source },
    channel: CHANNEL_TYPE,
    address: described(
      { type: 'string' },
      'Normalised for the channel type: E.164 for phone channels, lower case for email.',
    ),
    reason: oneOf(SUPPRESSION_LIST_REASONS),
    source: oneOf(SUPPRESSION_SOURCES, '`api` for entries added through this API.'),
    created_at: TIME,
  },
  'An address that is not messaged on a channel type (extensions §9). Entries do not change.',
);

const ALERT_SCOPE: SchemaObject = {
  type: 'object',
  description: 'Which messages are watched; empty: the whole workspace.',
  additionalProperties: false,
  properties: { channel_id: ID, workflow_id: ID, campaign_id: ID },
};

const ALERT_RULE = fixed(
  {
    id: described(ID, 'Counted per workspace; the default rule is 1.'),
    name: { type: 'string' },
    metric: oneOf(ALERT_METRICS),
    comparator: oneOf(ALERT_COMPARATORS),
    threshold: described({ type: 'number' }, 'A rate in 0–1, or a count for `failure_count`.'),
    window_minutes: { type: 'integer', minimum: 5, maximum: 1440 },
    min_volume: described(COUNT, 'Messages with an outcome in the window before the rule can fire.'),
    scope: ref('AlertScope'),
    enabled: { type: 'boolean' },
    created_at: TIME,
    updated_at: TIME,
  },
  'A delivery monitoring rule (extensions §10).',
);

const ALERT_FAILURE_CODE = fixed({
  code: FAILURE_CODE,
  count: { type: 'integer', minimum: 1 },
  fix: { type: 'string' },
});

const ALERT = fixed(
  {
    id: { type: 'string', pattern: ALERT_ID_PATTERN.source },
    rule_id: ID,
    status: oneOf(ALERT_STATUSES),
    metric: oneOf(ALERT_METRICS),
    comparator: oneOf(ALERT_COMPARATORS),
    value: described({ type: 'number' }, 'The metric over the window.'),
    threshold: { type: 'number' },
    window_minutes: { type: 'integer', minimum: 5, maximum: 1440 },
    sample_size: described(COUNT, 'Messages with an outcome in the window.'),
    scope: ref('AlertScope'),
    top_failure_codes: {
      type: 'array',
      maxItems: 5,
      items: ref('AlertFailureCode'),
      description: "The window's most frequent failure codes (ties by code).",
    },
    started_at: TIME,
    resolved_at: orNull(TIME),
    created_at: TIME,
    updated_at: TIME,
  },
  'An alert a rule raised (extensions §10); a resolved one shows the metric of the moment it resolved.',
);

const PUSH_SUBSCRIPTION = fixed(
  {
    subscriber_id: described(
      { type: 'string', pattern: '^ps_[0-9a-f]{24}$' },
      "What a contact's `browser_push` channel link holds; the same endpoint on the channel always has the same id.",
    ),
    endpoint: { type: 'string' },
    created_at: described(TIME, 'When the endpoint was first subscribed.'),
  },
  "A browser's push subscription on a browser_push channel.",
);

export const MESSAGING_SCHEMAS: Record<string, SchemaObject> = {
  Channel: CHANNEL,
  Template: TEMPLATE,
  ProviderTemplate: PROVIDER_TEMPLATE,
  RenderedTemplate: RENDERED_TEMPLATE,
  Message: MESSAGE,
  InboundMessage: INBOUND_MESSAGE,
  MessageWorkflow: MESSAGE_WORKFLOW,
  MessageBot: MESSAGE_BOT,
  MessageFailure: MESSAGE_FAILURE,
  MessageSuppression: MESSAGE_SUPPRESSION,
  MessageHistoryEntry: MESSAGE_HISTORY_ENTRY,
  MessageLink: MESSAGE_LINK,
  PushSubscription: PUSH_SUBSCRIPTION,
  Suppression: SUPPRESSION,
  AlertRule: ALERT_RULE,
  AlertScope: ALERT_SCOPE,
  Alert: ALERT,
  AlertFailureCode: ALERT_FAILURE_CODE,
};
