import {
  ALERT_COMPARATORS,
  ALERT_METRICS,
  ALERT_STATUSES,
  CHANNEL_TYPES,
  CONSENT_SOURCES,
  CONSENT_STATUSES,
  FAILURE_CODES,
  MAX_ALERT_WINDOW_MINUTES,
  MAX_ID,
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  MIN_ALERT_WINDOW_MINUTES,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_DISABLED_REASONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT_TYPE,
} from '@cms/contracts';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import { ID, NULLABLE_TEXT, NULLABLE_TIME, TIME, UUID, fixed, ref } from './shapes';

/**
 * Outbound webhooks (specification "Events", extensions §4 and §10): the endpoints and their deliveries
 * as webhook-dispatch answers them (webhook-endpoint.resource.ts, webhook-delivery.repository.ts), and
 * the body of every delivery, its `data` as deliveries/webhook-sources.ts builds it from each fact.
 */

const CHANNEL: SchemaObject = { type: 'string', enum: [...CHANNEL_TYPES], description: 'The channel type.' };
const SECRET: SchemaObject = {
  type: 'string',
  pattern: '^whsec_[A-Za-z0-9_-]{43}$',
  description:
    'The signing secret (`whsec_` and 32 random bytes in base64url), in the clear only in this answer: keep it. Sign-checks use it as the HMAC key exactly as shown.',
};

const ENDPOINT_FIELDS: Record<string, SchemaObject> = {
  id: UUID,
  url: { type: 'string', maxLength: MAX_WEBHOOK_URL_LENGTH, description: 'An https URL.' },
  description: { type: ['string', 'null'], maxLength: MAX_WEBHOOK_DESCRIPTION_LENGTH },
  event_types: {
    type: 'array',
    minItems: 1,
    uniqueItems: true,
    description: 'The kinds it receives (a test delivery comes whatever they are).',
    items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
  },
  enabled: {
    type: 'boolean',
    description:
      'Off after 25 failed deliveries in a row or a PATCH `enabled: false`: it then receives nothing.',
  },
  disabled_reason: {
    type: ['string', 'null'],
    enum: [...WEBHOOK_DISABLED_REASONS, null],
    description:
      '`failures` (switched off after 25 failed deliveries in a row), `manual` (a PATCH), or `null` while enabled.',
  },
  consecutive_failures: {
    type: 'integer',
    minimum: 0,
    description: 'Failed deliveries in a row since the last success (test deliveries not counted).',
  },
  created_at: TIME,
  updated_at: TIME,
};

/** id, external_id, name, phone, email: the contact as every webhook shows it (specification). */
const WEBHOOK_CONTACT = fixed(
  {
    id: ID,
    external_id: NULLABLE_TEXT,
    name: NULLABLE_TEXT,
    phone: NULLABLE_TEXT,
    email: NULLABLE_TEXT,
  },
  'The contact as webhooks show it, as the sending service knows it when the event happened.',
);

const WORKFLOW: SchemaObject = {
  ...fixed({
    id: ID,
    name: { type: 'string', description: 'The workflow name when the message was made.' },
    run_id: ID,
    step: { type: 'string' },
  }),
  type: ['object', 'null'],
  description: 'The automation that made the message; `null` for any other message.',
};

const BOT: SchemaObject = {
  ...fixed({
    id: ID,
    name: { type: 'string', description: "The bot's name when the message was made." },
    conversation_id: { ...ID, description: 'The conversation the message belongs to.' },
  }),
  type: ['object', 'null'],
  description: 'The bot that sent the message (extensions §12); `null` for any other message.',
};

const CAMPAIGN_ID: SchemaObject = {
  type: ['integer', 'null'],
  minimum: 1,
  maximum: MAX_ID,
  description: 'The broadcast that made the message; `null` for any other message.',
};

const FAILURE_CODE: SchemaObject = {
  type: 'string',
  enum: Object.keys(FAILURE_CODES),
  description: 'Why the message failed (extensions §9, Failure codes).',
};

export const WEBHOOKS_SCHEMAS: Record<string, SchemaObject> = {
  WebhookEndpoint: fixed(ENDPOINT_FIELDS, 'An outbound webhook endpoint (extensions §4); never its secret.'),
  WebhookEndpointCreated: fixed(
    { ...ENDPOINT_FIELDS, secret: SECRET },
    'The endpoint just made, with its signing secret: the only answer that shows it.',
  ),
  WebhookSecret: fixed(
    { secret: SECRET },
    'The new signing secret. For 24 hours every delivery carries a second `v1=` signature made with the previous one.',
  ),
  WebhookAttempt: fixed(
    {
      attempt: {
        type: 'integer',
        minimum: 1,
        description: 'Counts every attempt the delivery ever had; a redelivery continues the count.',
      },
      at: TIME,
      response_status: {
        type: ['integer', 'null'],
        description: 'The status the endpoint answered; `null` when it gave none (timeout, connection, TLS).',
      },
      response_body: {
        type: ['string', 'null'],
        description: 'What the endpoint answered, cut to 16 KiB; `null` when it gave no answer.',
      },
      duration_ms: { type: ['integer', 'null'], minimum: 0 },
      error: {
        type: ['string', 'null'],
        description:
          'Why the attempt failed (not a 2xx, a redirect, a timeout, DNS, TLS, …); `null` when it succeeded.',
      },
    },
    'One POST to the endpoint.',
  ),
  WebhookDelivery: fixed(
    {
      id: { ...UUID, description: 'The envelope id, sent as Service-Delivery.' },
      endpoint_id: UUID,
      event_type: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE] },
      status: {
        type: 'string',
        enum: [...WEBHOOK_DELIVERY_STATUSES],
        description: '`failed` once all seven attempts of its round failed.',
      },
      attempts: { type: 'array', items: ref('WebhookAttempt') },
      next_attempt_at: {
        ...NULLABLE_TIME,
        description: 'When the next attempt is due while `pending`; `null` once it succeeded or failed.',
      },
      created_at: TIME,
    },
    'One event sent to one endpoint, with every attempt.',
  ),

  WebhookEnvelope: fixed(
    {
      id: {
        ...UUID,
        description: 'The delivery id; equals the Service-Delivery header. De-duplicate with it.',
      },
      type: {
        type: 'string',
        enum: [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE],
        description: 'The event kind; equals the Service-Event header.',
      },
      created_at: { ...TIME, description: 'When the event happened (UTC, with milliseconds).' },
      data: { type: 'object', description: 'Depends on the kind.' },
    },
    'The body of every delivery, the same for all kinds. Fields are only ever added, never removed or renamed.',
  ),
  WebhookContact: WEBHOOK_CONTACT,
  MessageEventData: fixed(
    {
      id: { type: 'string', pattern: '^msg_[0-9a-f]{32}$', description: 'The message id.' },
      status: {
        type: 'string',
        enum: ['sent', 'delivered', 'read', 'failed', 'suppressed'],
        description: 'The stage the event reports (`sent` in message.sent, …).',
      },
      channel: CHANNEL,
      recipient: {
        ...NULLABLE_TEXT,
        description:
          'The address the message went to (phone, email or the linked channel id); `null` when the contact had none.',
      },
      template: { ...NULLABLE_TEXT, description: 'The template name.' },
      workflow: WORKFLOW,
      campaign_id: CAMPAIGN_ID,
      test: {
        type: 'boolean',
        description: "True for the message of a notification's test send; false for every other message.",
      },
      bot: BOT,
      fallback_from: {
        type: ['string', 'null'],
        pattern: '^msg_[0-9a-f]{32}$',
        description: 'The message this one replaced when its route moved to the next step.',
      },
      failure: {
        ...fixed({
          code: FAILURE_CODE,
          reason: { type: 'string' },
          fix: { type: 'string' },
          provider_code: { ...NULLABLE_TEXT, description: "The provider's own code, as it wrote it." },
        }),
        type: ['object', 'null'],
        description: 'Why the message failed; `null` unless it failed.',
      },
      contact: ref('WebhookContact'),
      sent_at: NULLABLE_TIME,
      delivered_at: NULLABLE_TIME,
      read_at: NULLABLE_TIME,
      failed_at: NULLABLE_TIME,
    },
    'data of message.sent, message.delivered, message.read, message.failed and message.suppressed: the message after the change it reports.',
  ),
  LinkClickedData: fixed(
    {
      message_id: { type: 'string', pattern: '^msg_[0-9a-f]{32}$' },
      url: { type: 'string', description: 'The original URL the tracked link redirects to.' },
      link_index: {
        type: 'integer',
        minimum: 0,
        description: 'The link among the message’s tracked links, from 0.',
      },
      contact: ref('WebhookContact'),
      channel: CHANNEL,
      workflow: WORKFLOW,
      campaign_id: CAMPAIGN_ID,
      clicked_at: TIME,
      user_agent: { type: 'string', description: 'The User-Agent of the click (at most 512 characters).' },
    },
    'data of link.clicked (extensions §10): the first human click of a tracked link of a message.',
  ),
  OutcomeRecordedData: fixed(
    {
      id: ID,
      goal: { type: 'string', description: 'The goal event name.' },
      workflow: fixed({ id: ID, name: { type: 'string' }, run_id: ID }),
      credited_message_id: {
        type: ['string', 'null'],
        description:
          "The run's message with the strongest engagement (clicked, then read, delivered, sent; the latest among equals), or `null`.",
      },
      channel: {
        type: ['string', 'null'],
        enum: [...CHANNEL_TYPES, null],
        description: 'The channel type of the credited message; `null` with it.',
      },
      contact: ref('WebhookContact'),
      event: fixed(
        {
          id: ID,
          data: { type: 'object', additionalProperties: true, description: "The goal event's data." },
        },
        'The goal event.',
      ),
      occurred_at: { ...TIME, description: "The goal event's time." },
    },
    'data of outcome.recorded (specification; extensions §12): a workflow reached its goal.',
  ),
  ConsentEventData: fixed(
    {
      channel: CHANNEL,
      status: { type: 'string', enum: [...CONSENT_STATUSES] },
      source: {
        type: 'string',
        enum: [...CONSENT_SOURCES],
        description:
          '`api` (the public API: contact endpoints and events), `keyword` (an opt-out or opt-in word the contact sent), `provider` (a provider’s opt-out).',
      },
      contact: ref('WebhookContact'),
    },
    'data of consent.granted and consent.revoked: marketing consent on one channel changed.',
  ),
  AlertTriggeredData: fixed(
    {
      id: { type: 'string', pattern: '^alert_[0-9a-f]{32}$' },
      rule_id: ID,
      status: { type: 'string', enum: [...ALERT_STATUSES] },
      metric: { type: 'string', enum: [...ALERT_METRICS] },
      comparator: { type: 'string', enum: [...ALERT_COMPARATORS] },
      value: { type: 'number', description: 'The metric over the window.' },
      threshold: { type: 'number' },
      window_minutes: {
        type: 'integer',
        minimum: MIN_ALERT_WINDOW_MINUTES,
        maximum: MAX_ALERT_WINDOW_MINUTES,
      },
      sample_size: { type: 'integer', minimum: 0, description: 'Messages with an outcome in the window.' },
      scope: {
        type: 'object',
        additionalProperties: false,
        description: 'The messages the rule watches; `{}` is the whole workspace.',
        properties: { channel_id: ID, workflow_id: ID, campaign_id: ID },
      },
      top_failure_codes: {
        type: 'array',
        maxItems: 5,
        items: fixed({ code: FAILURE_CODE, count: { type: 'integer', minimum: 1 }, fix: { type: 'string' } }),
      },
      started_at: TIME,
      resolved_at: NULLABLE_TIME,
      created_at: TIME,
      updated_at: TIME,
      notification_seq: {
        type: 'integer',
        minimum: 1,
        description: '1 when the alert starts (`firing`), 2 when it resolves (`resolved`).',
      },
    },
    'data of alert.triggered (extensions §10): the alert as `GET /api/v1/alerts/{id}` showed it when the notification was made.',
  ),
  WebhookTestData: fixed(
    {
      endpoint_id: UUID,
      message: { type: 'string', description: 'A fixed sentence saying it is a test.' },
    },
    'data of webhook.test: sent by `POST /api/v1/webhook-endpoints/{id}/test`.',
  ),
};
