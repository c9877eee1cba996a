import {
  BROADCASTS_FACT_TYPES,
  nextScheduledStart,
  readNotificationDefinition,
  type NotificationCreateRequestedV1,
  type NotificationDefinition,
  type NotificationDeleteRequestedV1,
  type NotificationScheduleFiredV1,
  type NotificationUpdateRequestedV1,
} from '@cms/contracts';
import type { Answer } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import { SCHEDULE_SIGNAL, type BroadcastsDecision } from '../../decisions/broadcasts-decision';
import { BroadcastsException } from '../../decisions/broadcasts.exception';
import { SendDecisions } from '../../sends/send-decisions';
import { NotificationEntity } from '../notification.entity';
import { NotificationRepository } from '../notification.repository';
import { notificationFact, notificationResource } from '../notification.resource';

/**
 * The next scheduled start as of `after`: none while disabled. A start that was missed while the
 * service was down is not made up tick by tick: the timer that fell due starts one send, and the
 * next start is the schedule's next one after the time it fired.
 */
function nextRunAt(notification: NotificationEntity, after: Date): Date | null {
  if (!notification.enabled) return null;
  return nextScheduledStart(notification.schedule, notification.scheduleTimezone, after);
}

/**
 * Notification writes (extensions §13), decided in log order from the requests topic alone: the
 * template and the audience were read from their owners by the gateway before the request was
 * recorded, and their names came with it, so a rebuild decides each write as live did.
 */
@Injectable()
export class WriteNotificationsHandler {
  constructor(@Inject(SendDecisions) private readonly sends: SendDecisions) {}

  async create(decision: BroadcastsDecision<NotificationCreateRequestedV1>): Promise<Answer> {
    const { notification_id: id, definition: body } = decision.data;
    const notifications = new NotificationRepository(decision.manager);
    if (await notifications.exists(id)) throw BroadcastsException.idInUse(id);
    const reading = readNotificationDefinition(body, 'create', decision.atDate);
    if (!reading.ok) throw BroadcastsException.invalidNotification(reading.problems);
    const definition = reading.value;
    const notification = Object.assign(
      new NotificationEntity(),
      { id, workspaceId: decision.workspaceId, createdAt: decision.atDate, updatedAt: decision.atDate },
      // A create's definition has every attribute (the defaults filled in).
      columnsOf(definition, referencesOf(decision.data, definition)),
    );
    notification.nextRunAt = nextRunAt(notification, decision.atDate);
    await notifications.save(notification);
    await this.scheduled(decision, notifications, notification);
    decision.fact(
      BROADCASTS_FACT_TYPES.notificationCreated,
      String(id),
      notificationFact(notification, decision.at),
    );
    return { status: 201, resource: notificationResource(notification) };
  }

  /** Only the attributes sent change; the next start is computed again from what the schedule is now. */
  async update(decision: BroadcastsDecision<NotificationUpdateRequestedV1>): Promise<Answer> {
    const { notification_id: id, changes } = decision.data;
    const notifications = new NotificationRepository(decision.manager);
    const notification = await notifications.findInWorkspace(decision.workspaceId, id);
    if (!notification) throw BroadcastsException.notificationNotFound(id);
    const reading = readNotificationDefinition(changes, 'update', decision.atDate);
    if (!reading.ok) throw BroadcastsException.invalidNotification(reading.problems);
    const definition = reading.value;
    Object.assign(notification, columnsOf(definition, referencesOf(decision.data, definition)), {
      updatedAt: decision.atDate,
    });
    notification.nextRunAt = nextRunAt(notification, decision.atDate);
    await notifications.save(notification);
    await this.scheduled(decision, notifications, notification);
    decision.fact(
      BROADCASTS_FACT_TYPES.notificationUpdated,
      String(id),
      notificationFact(notification, decision.at),
    );
    return { status: 200, resource: notificationResource(notification) };
  }

  /** Frees its template and audience at once, and cancels its sends that are not finished (§13). */
  async delete(decision: BroadcastsDecision<NotificationDeleteRequestedV1>): Promise<Answer> {
    const { notification_id: id } = decision.data;
    const notifications = new NotificationRepository(decision.manager);
    const notification = await notifications.findInWorkspace(decision.workspaceId, id);
    if (!notification) throw BroadcastsException.notificationNotFound(id);
    await notifications.remove(notification);
    await this.sends.cancelUnfinished(decision, id);
    notification.nextRunAt = null;
    await this.scheduled(decision, notifications, notification);
    decision.fact(BROADCASTS_FACT_TYPES.notificationDeleted, String(id), { id, at: decision.at });
    return { status: 204 };
  }

  /**
   * A scheduled start came: a send to the audience, while the notification is enabled and its schedule
   * is still the one the timer was set from; then the timer of the next start.
   */
  async scheduleFired(decision: BroadcastsDecision<NotificationScheduleFiredV1>): Promise<void> {
    const { notification_id: id, schedule } = decision.data;
    const notifications = new NotificationRepository(decision.manager);
    const notification = await notifications.findInWorkspace(decision.workspaceId, id);
    if (!notification || !notification.enabled || notification.schedule !== schedule) return;
    await this.sends.start(decision, notification, null);
    notification.nextRunAt = nextRunAt(notification, decision.atDate);
    await notifications.save(notification);
    await this.scheduled(decision, notifications, notification);
  }

  private async scheduled(
    decision: BroadcastsDecision,
    notifications: NotificationRepository,
    notification: NotificationEntity,
  ): Promise<void> {
    if (!decision.live) return;
    await notifications.setScheduleTimer(notification);
    await decision.wake(SCHEDULE_SIGNAL);
  }
}

/** The columns of the attributes a definition holds (all of a create's, those a PATCH sent). */
function columnsOf(
  definition: Partial<NotificationDefinition>,
  references: { templateName?: string; templateChannel?: string; targetGroupName?: string },
): Partial<NotificationEntity> {
  const columns: Partial<NotificationEntity> = {
    name: definition.name,
    templateId: definition.template_id,
    targetGroupId: definition.target_group_id,
    variables: definition.variables,
    route: definition.route,
    schedule: definition.schedule,
    scheduleTimezone: definition.schedule_timezone,
    enabled: definition.enabled,
    purpose: definition.purpose,
    throttlePerMinute: definition.throttle_per_minute,
    templateName: references.templateName,
    templateChannel: references.templateChannel,
    targetGroupName: references.targetGroupName,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

/** The names the gateway read with the ids the write names; a record without them was not made by the gateway. */
function referencesOf(
  data: NotificationCreateRequestedV1 | NotificationUpdateRequestedV1,
  definition: Partial<NotificationDefinition>,
): { templateName?: string; templateChannel?: string; targetGroupName?: string } {
  const problems: Array<{ pointer: string; detail: string }> = [];
  if (
    definition.template_id !== undefined &&
    (data.template_name === undefined || data.template_channel === undefined)
  )
    problems.push({
      pointer: '/data/attributes/template_id',
      detail: `Template ${definition.template_id} was not found.`,
    });
  if (definition.target_group_id !== undefined && data.target_group_name === undefined)
    problems.push({
      pointer: '/data/attributes/target_group_id',
      detail: `Audience ${definition.target_group_id} was not found.`,
    });
  if (problems.length > 0) throw BroadcastsException.invalidNotification(problems);
  return {
    ...(data.template_name !== undefined ? { templateName: data.template_name } : {}),
    ...(data.template_channel !== undefined ? { templateChannel: data.template_channel } : {}),
    ...(data.target_group_name !== undefined ? { targetGroupName: data.target_group_name } : {}),
  };
}
