import {
  CHANNEL_TYPES,
  MAX_NOTIFICATION_NAME,
  MAX_ROUTE_STEPS,
  MAX_THROTTLE_PER_MINUTE,
  MESSAGE_PURPOSES,
  NOTIFICATION_SEND_STATUSES,
  WAIT_FOR_STATUSES,
} from '@cms/contracts';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import { COUNT, FREE_FORM, ID, NULLABLE_TIME, TIME, described, fixed, orNull } from './shapes';

/**
 * Notifications and their sends (extensions §13), as the broadcasts service answers them
 * (apps/broadcasts/src: notification.resource.ts, sends/send.resource.ts) and the gateway passes them on.
 */

/** A route step as it was sent and stored: only the fields the step was given. */
const ROUTE_STEP: SchemaObject = {
  type: 'object',
  required: ['template_id'],
  additionalProperties: false,
  description:
    'A route step (extensions §9): a channel by `channel_id` or by `channel` type, and a template.',
  properties: {
    channel_id: ID,
    channel: { type: 'string', enum: [...CHANNEL_TYPES] },
    template_id: ID,
    wait_for: { type: 'string', enum: [...WAIT_FOR_STATUSES] },
    timeout: { type: 'string', description: 'An ISO 8601 duration from PT30S to P7D.' },
  },
};

const NOTIFICATION = fixed(
  {
    id: ID,
    name: { type: 'string', maxLength: MAX_NOTIFICATION_NAME },
    template_id: ID,
    template_name: described({ type: 'string' }, "The template's name."),
    target_group_id: described(ID, 'The audience it sends to.'),
    target_group: fixed({ id: ID, name: { type: 'string' } }, 'The audience, with its name.'),
    variables: described(FREE_FORM, 'The saved variables, as `vars` in the template.'),
    route: orNull(
      { type: 'array', minItems: 1, maxItems: MAX_ROUTE_STEPS, items: ROUTE_STEP },
      "The route its messages take; null: the template's channel type, its default channel.",
    ),
    schedule: orNull(
      { type: 'string' },
      'An ISO 8601 time (one send then) or a cron expression of five fields (a send at each tick); null: sent only when asked.',
    ),
    schedule_timezone: described({ type: 'string' }, 'The IANA time zone a cron `schedule` is read in.'),
    next_run_at: described(
      NULLABLE_TIME,
      'When the schedule next starts a send; null without a schedule, after its time, or while disabled.',
    ),
    enabled: described(
      { type: 'boolean' },
      'A disabled notification is not sent to its audience, by a schedule or when asked; test sends work.',
    ),
    purpose: { type: 'string', enum: [...MESSAGE_PURPOSES] },
    throttle_per_minute: orNull(
      { type: 'integer', minimum: 1, maximum: MAX_THROTTLE_PER_MINUTE },
      'At most this many of a send’s messages are made in any 60 seconds; null: no bound of its own.',
    ),
    created_at: TIME,
    updated_at: TIME,
  },
  'A notification (extensions §13): a saved template sent to a saved audience with saved variables.',
);

const NOTIFICATION_SEND_STATUS: SchemaObject = {
  type: 'string',
  enum: [...NOTIFICATION_SEND_STATUSES],
};

const NOTIFICATION_SEND = fixed(
  {
    id: ID,
    notification_id: ID,
    status: described(
      NOTIFICATION_SEND_STATUS,
      '`queued`, then `preparing` (its audience is taken) and `sending`; `paused` when asked; it ends `completed` (every message made has left `queued`), `cancelled` or `failed`.',
    ),
    test_mode: described({ type: 'boolean' }, 'One message to a test phone rather than the audience.'),
    audience_size: orNull(
      { type: 'integer', minimum: 0 },
      'The members the audience had when the send started (1 for a test send); null until then.',
    ),
    deduplicated: described(COUNT, 'Members left out because another member has the same recipient address.'),
    counts: fixed(
      {
        queued: described(COUNT, 'Made and not yet sent, failed or suppressed.'),
        sent: described(COUNT, 'Reached `sent` (delivered and read ones too).'),
        delivered: described(COUNT, 'Reached `delivered` (read ones too).'),
        read: COUNT,
        failed: COUNT,
        suppressed: COUNT,
      },
      "The send's messages by how far each got.",
    ),
    failures_by_code: {
      type: 'object',
      additionalProperties: COUNT,
      description: 'Failed messages by `failure.code`.',
    },
    started_at: described(NULLABLE_TIME, 'When the send took its audience; null before.'),
    finished_at: described(NULLABLE_TIME, 'When it ended; null while it goes on.'),
    created_at: TIME,
    updated_at: TIME,
  },
  'A send of a notification (extensions §13, Sending): to its audience, started when asked or by its schedule, or a test send.',
);

/**
 * The bodies of the notification routes, which readNotificationDefinition and readSendBody read (their
 * classes only let the attributes through the body pipe, so the generator cannot describe them).
 */
const NOTIFICATION_ATTRIBUTES: Record<string, SchemaObject> = {
  name: { type: 'string', pattern: '\\S', maxLength: MAX_NOTIFICATION_NAME },
  template_id: ID,
  target_group_id: described(ID, 'An audience.'),
  variables: described(FREE_FORM, 'At most 64 KiB as JSON.'),
  route: orNull({ type: 'array', minItems: 1, maxItems: MAX_ROUTE_STEPS, items: ROUTE_STEP }),
  schedule: orNull(
    { type: 'string' },
    'An ISO 8601 time with its offset, not in the past, or a cron expression of five fields.',
  ),
  schedule_timezone: described({ type: 'string' }, 'An IANA time zone name, such as `Europe/Berlin`.'),
  enabled: { type: 'boolean' },
  purpose: { type: 'string', enum: [...MESSAGE_PURPOSES] },
  throttle_per_minute: orNull({ type: 'integer', minimum: 1, maximum: MAX_THROTTLE_PER_MINUTE }),
};

function sendBody(nullable: boolean): SchemaObject {
  const text = (description: string): SchemaObject =>
    nullable ? orNull({ type: 'string' }, description) : described({ type: 'string' }, description);
  return {
    type: 'object',
    required: ['notification_id'],
    additionalProperties: false,
    properties: {
      notification_id: ID,
      notification_audience: {
        ...text('Deprecated and ignored: the saved audience is sent.'),
        deprecated: true,
      },
      notification_template: {
        ...text('Deprecated and ignored: the saved template is sent.'),
        deprecated: true,
      },
      test_mode: { type: 'boolean', default: false },
      test_phone: text('Required with `test_mode`: a phone number with its country code.'),
    },
  };
}

export const NOTIFICATION_BODIES = {
  create: {
    type: 'object',
    required: ['name', 'template_id', 'target_group_id'],
    additionalProperties: false,
    properties: NOTIFICATION_ATTRIBUTES,
  },
  update: { type: 'object', additionalProperties: false, properties: NOTIFICATION_ATTRIBUTES },
  send: sendBody(false),
  batchSend: sendBody(true),
} satisfies Record<string, SchemaObject>;

export const NOTIFICATIONS_SCHEMAS: Record<string, SchemaObject> = {
  Notification: NOTIFICATION,
  NotificationSend: NOTIFICATION_SEND,
  NotificationSendAccepted: fixed(
    {
      send_id: ID,
      notification_id: ID,
      status: described({ type: 'string', enum: ['queued'] }, 'A send starts queued.'),
      test_mode: { type: 'boolean' },
    },
    'The send `POST /api/v1/notifications/send` queued; its progress is read at `GET /api/v1/notification-sends/{send_id}`.',
  ),
};
