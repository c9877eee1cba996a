import {
  Allow,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Min,
} from 'class-validator';

import { CHANNEL_TYPES, type ChannelType } from '../messaging/channel.bodies';
import type { RecordTypeDefinition } from '../registry/record-type-registry';
import { firstVersions, type PayloadsOf } from '../requests/request-schemas';

/** Requests the broadcasts service decides (cms.requests.v1, key = workspace id). */
export const BROADCASTS_REQUEST_TYPES = {
  notificationCreate: 'notification.create.requested',
  notificationUpdate: 'notification.update.requested',
  notificationDelete: 'notification.delete.requested',
  /** `POST /api/v1/notifications/send` and `/batch-send`. */
  notificationSend: 'notification.send.requested',
  sendPause: 'notification-send.pause.requested',
  sendResume: 'notification-send.resume.requested',
  sendCancel: 'notification-send.cancel.requested',
} as const;

/**
 * What the broadcasts service appends to the requests topic itself, so that it is decided in one
 * order with the notification changes it meets, live and on every replay. Nobody waits for them.
 */
export const BROADCAST_INPUT_TYPES = {
  /** From the schedule worker: a notification's scheduled time (or a tick of its cron) came. */
  scheduleFired: 'notification.schedule.fired',
  /** From audience.snapshot.taken on cms.segments.v1: the send's members are in the log. */
  snapshotTaken: 'notification-send.snapshot.recorded',
  /** From the send's message facts on cms.messaging.v1: every message it makes has left `queued`. */
  made: 'notification-send.made',
} as const;

/** Facts the broadcasts service publishes (cms.broadcasts.v1, key = workspace id). */
export const BROADCASTS_FACT_TYPES = {
  notificationCreated: 'notification.created',
  notificationUpdated: 'notification.updated',
  notificationDeleted: 'notification.deleted',
  /** A send was queued (by the API, a schedule or a test). */
  sendCreated: 'notification-send.created',
  /** A send's status changed (its counts are read from the API). */
  sendStatusChanged: 'notification-send.status-changed',
} as const;

export const NOTIFICATION_SEND_STATUSES = [
  'queued',
  'preparing',
  'sending',
  'paused',
  'completed',
  'cancelled',
  'failed',
] as const;
export type NotificationSendStatus = (typeof NOTIFICATION_SEND_STATUSES)[number];

// --- bodies -----------------------------------------------------------------------------------

/**
 * `POST /api/v1/notifications` and `PATCH /api/v1/notifications/{id}`: every attribute is read, with
 * its pointers, by readNotificationDefinition; the class only lets them through the body pipe.
 */
export class NotificationBody {
  @Allow() name?: unknown;
  @Allow() template_id?: unknown;
  @Allow() target_group_id?: unknown;
  @Allow() variables?: unknown;
  @Allow() route?: unknown;
  @Allow() schedule?: unknown;
  @Allow() schedule_timezone?: unknown;
  @Allow() enabled?: unknown;
  @Allow() purpose?: unknown;
  @Allow() throttle_per_minute?: unknown;
}

/** `POST /api/v1/notifications/send` and `/batch-send` (the deprecated fields are read and ignored). */
export class NotificationSendBody {
  @Allow() notification_id?: unknown;
  @Allow() notification_audience?: unknown;
  @Allow() notification_template?: unknown;
  @Allow() test_mode?: unknown;
  @Allow() test_phone?: unknown;
}

// --- requests ---------------------------------------------------------------------------------

/**
 * What the gateway read from the owners of the notification's references before it recorded the
 * write, so that deciding it reads nothing another topic feeds: the template's name and channel type,
 * the audience's name.
 */
export class NotificationReferencesV1 {
  @IsOptional()
  @IsString()
  template_name?: string;

  @IsOptional()
  @IsIn(CHANNEL_TYPES)
  template_channel?: ChannelType;

  @IsOptional()
  @IsString()
  target_group_name?: string;
}

/** A new notification: its definition as readNotificationDefinition read it (defaults filled in). */
export class NotificationCreateRequestedV1 extends NotificationReferencesV1 {
  /** Minted by the gateway. */
  @IsInt()
  @Min(1)
  notification_id!: number;

  @IsObject()
  definition!: Record<string, unknown>;
}

/** Only the attributes sent, read by readNotificationDefinition in its update mode. */
export class NotificationUpdateRequestedV1 extends NotificationReferencesV1 {
  @IsInt()
  @Min(1)
  notification_id!: number;

  @IsObject()
  changes!: Record<string, unknown>;
}

export class NotificationDeleteRequestedV1 {
  @IsInt()
  @Min(1)
  notification_id!: number;
}

export class NotificationSendRequestedV1 {
  @IsInt()
  @Min(1)
  notification_id!: number;

  @IsBoolean()
  test_mode!: boolean;

  /** With `test_mode`: the phone as sent, and the contact that has it (made by the gateway when missing). */
  @IsOptional()
  @IsString()
  test_phone?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  test_contact_id?: number;
}

/** Pause, resume or cancel. */
export class NotificationSendActionRequestedV1 {
  @IsInt()
  @Min(1)
  send_id!: number;
}

export class NotificationScheduleFiredV1 {
  @IsInt()
  @Min(1)
  notification_id!: number;

  /** The scheduled time that came. */
  @IsISO8601()
  due_at!: string;

  /** The schedule it was computed from: a schedule changed since then fires nothing. */
  @IsString()
  schedule!: string;
}

export class NotificationSendSnapshotRecordedV1 {
  @IsInt()
  @Min(1)
  send_id!: number;

  @IsBoolean()
  found!: boolean;

  @IsInt()
  @Min(0)
  audience_size!: number;

  @IsInt()
  @Min(0)
  deduplicated!: number;
}

export class NotificationSendMadeV1 {
  @IsInt()
  @Min(1)
  send_id!: number;

  /** The time of the message fact that took the last message out of `queued`. */
  @IsISO8601()
  at!: string;
}

// --- facts ------------------------------------------------------------------------------------

/** `notification.created` and `notification.updated`: the notification whole, as the API answers it. */
export class NotificationFactV1 {
  @IsInt()
  @Min(1)
  id!: number;

  @IsString()
  name!: string;

  @IsInt()
  @Min(1)
  template_id!: number;

  @IsInt()
  @Min(1)
  target_group_id!: number;

  @IsBoolean()
  enabled!: boolean;

  @Allow()
  schedule!: string | null;

  @IsISO8601()
  at!: string;
}

export class NotificationDeletedV1 {
  @IsInt()
  @Min(1)
  id!: number;

  @IsISO8601()
  at!: string;
}

export class NotificationSendFactV1 {
  @IsInt()
  @Min(1)
  id!: number;

  @IsInt()
  @Min(1)
  notification_id!: number;

  @IsIn(NOTIFICATION_SEND_STATUSES)
  status!: NotificationSendStatus;

  @IsBoolean()
  test_mode!: boolean;

  @IsISO8601()
  at!: string;
}

/** The payload class of every request the broadcasts service decides. */
export const BROADCASTS_REQUEST_SCHEMAS = {
  [BROADCASTS_REQUEST_TYPES.notificationCreate]: NotificationCreateRequestedV1,
  [BROADCASTS_REQUEST_TYPES.notificationUpdate]: NotificationUpdateRequestedV1,
  [BROADCASTS_REQUEST_TYPES.notificationDelete]: NotificationDeleteRequestedV1,
  [BROADCASTS_REQUEST_TYPES.notificationSend]: NotificationSendRequestedV1,
  [BROADCASTS_REQUEST_TYPES.sendPause]: NotificationSendActionRequestedV1,
  [BROADCASTS_REQUEST_TYPES.sendResume]: NotificationSendActionRequestedV1,
  [BROADCASTS_REQUEST_TYPES.sendCancel]: NotificationSendActionRequestedV1,
} as const;

export type BroadcastsRequestPayloads = PayloadsOf<typeof BROADCASTS_REQUEST_SCHEMAS>;

export const BROADCASTS_RECORD_TYPES: RecordTypeDefinition[] = [
  ...firstVersions(BROADCASTS_REQUEST_SCHEMAS),
  { type: BROADCAST_INPUT_TYPES.scheduleFired, version: 1, schema: NotificationScheduleFiredV1 },
  { type: BROADCAST_INPUT_TYPES.snapshotTaken, version: 1, schema: NotificationSendSnapshotRecordedV1 },
  { type: BROADCAST_INPUT_TYPES.made, version: 1, schema: NotificationSendMadeV1 },
  { type: BROADCASTS_FACT_TYPES.notificationCreated, version: 1, schema: NotificationFactV1 },
  { type: BROADCASTS_FACT_TYPES.notificationUpdated, version: 1, schema: NotificationFactV1 },
  { type: BROADCASTS_FACT_TYPES.notificationDeleted, version: 1, schema: NotificationDeletedV1 },
  { type: BROADCASTS_FACT_TYPES.sendCreated, version: 1, schema: NotificationSendFactV1 },
  { type: BROADCASTS_FACT_TYPES.sendStatusChanged, version: 1, schema: NotificationSendFactV1 },
];
