import type { SqlWindow } from '@cms/http';
import { upsertEntities } from '@cms/persistence';
import type { EntityManager, Repository } from 'typeorm';

import { NotificationEntity, ScheduleTimerEntity } from './notification.entity';

/** The list filters of the specification's `GET /api/v1/notifications`, as read from the query. */
export interface NotificationFilters {
  name?: string;
  templateName?: string;
  schedule?: string;
  targetGroupId?: number;
  targetGroupName?: string;
  enabled?: boolean;
  search?: string;
}

/** The notifications, through one EntityManager: the decision's transaction, or a read's. */
export class NotificationRepository {
  private readonly notifications: Repository<NotificationEntity>;

  constructor(private readonly manager: EntityManager) {
    this.notifications = manager.getRepository(NotificationEntity);
  }

  /** The notification, when it exists and belongs to the workspace. */
  findInWorkspace(workspaceId: number, id: number): Promise<NotificationEntity | null> {
    return this.notifications.findOneBy({ id, workspaceId });
  }

  /** In any workspace: the gateway mints ids, so one in use is a replayed or forged request. */
  exists(id: number): Promise<boolean> {
    return this.notifications.existsBy({ id });
  }

  async save(notification: NotificationEntity): Promise<void> {
    await this.notifications.save(notification);
  }

  async remove(notification: NotificationEntity): Promise<void> {
    await this.notifications.delete({ id: notification.id });
  }

  /** Oldest first; every filter an exact match but `search`, a case-insensitive substring of the name or the template's name. */
  async list(
    workspaceId: number,
    filters: NotificationFilters,
    window: SqlWindow,
  ): Promise<{ rows: NotificationEntity[]; total: number }> {
    const query = this.notifications
      .createQueryBuilder('n')
      .where('n.workspace_id = :workspaceId', { workspaceId })
      .orderBy('n.created_at', 'ASC')
      .addOrderBy('n.id', 'ASC')
      .offset(window.offset)
      .limit(window.limit);
    if (filters.name !== undefined) query.andWhere('n.name = :name', { name: filters.name });
    if (filters.templateName !== undefined)
      query.andWhere('n.template_name = :templateName', { templateName: filters.templateName });
    if (filters.schedule !== undefined)
      query.andWhere('n.schedule = :schedule', { schedule: filters.schedule });
    if (filters.targetGroupId !== undefined)
      query.andWhere('n.target_group_id = :targetGroupId', { targetGroupId: filters.targetGroupId });
    if (filters.targetGroupName !== undefined)
      query.andWhere('n.target_group_name = :targetGroupName', { targetGroupName: filters.targetGroupName });
    if (filters.enabled !== undefined) query.andWhere('n.enabled = :enabled', { enabled: filters.enabled });
    if (filters.search !== undefined) {
      const pattern = `%${filters.search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
      query.andWhere('(n.name ILIKE :pattern OR n.template_name ILIKE :pattern)', { pattern });
    }
    const [rows, total] = await query.getManyAndCount();
    return { rows, total };
  }

  /** The workspace's notifications that name a template or an audience: what keeps it from being deleted. */
  using(workspaceId: number, reference: 'template' | 'audience', id: number): Promise<NotificationEntity[]> {
    return this.notifications.find({
      where: reference === 'template' ? { workspaceId, templateId: id } : { workspaceId, targetGroupId: id },
      order: { id: 'ASC' },
    });
  }

  /** The timer of the notification's next scheduled start, set or removed (a job: live decisions only). */
  async setScheduleTimer(notification: NotificationEntity): Promise<void> {
    if (notification.nextRunAt === null || notification.schedule === null) {
      await this.manager.getRepository(ScheduleTimerEntity).delete({ id: String(notification.id) });
      return;
    }
    await upsertEntities(this.manager, ScheduleTimerEntity, [
      Object.assign(new ScheduleTimerEntity(), {
        id: String(notification.id),
        workspaceId: notification.workspaceId,
        notificationId: notification.id,
        schedule: notification.schedule,
        dueAt: notification.nextRunAt,
      }),
    ]);
  }
}
