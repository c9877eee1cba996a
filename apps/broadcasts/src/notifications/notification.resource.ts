import type { NotificationFactV1 } from '@cms/contracts';

import type { NotificationEntity } from './notification.entity';

function iso(value: Date | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** The notification as the read API and the write answers show it (extensions §13). */
export function notificationResource(notification: NotificationEntity): Record<string, unknown> {
  return {
    id: notification.id,
    name: notification.name,
    template_id: notification.templateId,
    template_name: notification.templateName,
    target_group_id: notification.targetGroupId,
    target_group: { id: notification.targetGroupId, name: notification.targetGroupName },
    variables: notification.variables,
    route: notification.route,
    schedule: notification.schedule,
    schedule_timezone: notification.scheduleTimezone,
    next_run_at: iso(notification.nextRunAt),
    enabled: notification.enabled,
    purpose: notification.purpose,
    throttle_per_minute: notification.throttlePerMinute,
    created_at: iso(notification.createdAt),
    updated_at: iso(notification.updatedAt),
  };
}

/** The data of `notification.created` and `notification.updated`. */
export function notificationFact(notification: NotificationEntity, at: string): NotificationFactV1 {
  return {
    id: notification.id,
    name: notification.name,
    template_id: notification.templateId,
    target_group_id: notification.targetGroupId,
    enabled: notification.enabled,
    schedule: notification.schedule,
    at,
  };
}
