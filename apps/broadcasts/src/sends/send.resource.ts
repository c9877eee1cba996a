import type { NotificationSendFactV1 } from '@cms/contracts';

import type { SendCountsEntity, SendEntity } from './send.entity';

function iso(value: Date | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** A send as `GET /api/v1/notification-sends/{id}` answers it (extensions §13), with its messages' counts. */
export function sendResource(send: SendEntity, counts: SendCountsEntity | null): Record<string, unknown> {
  const updatedAt = counts && counts.updatedAt > send.updatedAt ? counts.updatedAt : send.updatedAt;
  return {
    id: Number(send.id),
    notification_id: Number(send.notificationId),
    status: send.status,
    test_mode: send.testMode,
    audience_size: send.audienceSize,
    deduplicated: send.deduplicated,
    counts: {
      queued: counts?.queued ?? 0,
      sent: counts?.sent ?? 0,
      delivered: counts?.delivered ?? 0,
      read: counts?.read ?? 0,
      failed: counts?.failed ?? 0,
      suppressed: counts?.suppressed ?? 0,
    },
    failures_by_code: counts?.failuresByCode ?? {},
    started_at: iso(send.startedAt),
    finished_at: iso(send.finishedAt),
    created_at: iso(send.createdAt),
    updated_at: iso(updatedAt),
  };
}

/** The answer of `POST /api/v1/notifications/send`. */
export function sendAccepted(send: SendEntity): Record<string, unknown> {
  return {
    send_id: Number(send.id),
    notification_id: Number(send.notificationId),
    status: 'queued',
    test_mode: send.testMode,
  };
}

export function sendFact(send: SendEntity, at: string): NotificationSendFactV1 {
  return {
    id: Number(send.id),
    notification_id: Number(send.notificationId),
    status: send.status,
    test_mode: send.testMode,
    at,
  };
}
