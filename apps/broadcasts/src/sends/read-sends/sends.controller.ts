import {
  ListQuery,
  onlyFilters,
  pageMeta,
  parsePagination,
  toListBody,
  toSqlWindow,
  WorkspaceId,
  type ListBody,
  type QueryParams,
  foundByPathId,
} from '@cms/http';
import { Controller, Get, Inject, Param } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { NotificationRepository } from '../../notifications/notification.repository';
import { SendEntity } from '../send.entity';
import { sendResource } from '../send.resource';
import { sendsWithCounts } from '../send-store';

/** A notification's sends, newest first (extensions §13). */
@Controller('internal/v1/notifications')
export class NotificationSendsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get(':id/sends')
  async list(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const page = parsePagination(query);
    onlyFilters(query, []);
    const manager = this.dataSource.manager;
    const notification = await foundByPathId(rawId, 'Notification', (id) =>
      new NotificationRepository(manager).findInWorkspace(workspaceId, id),
    );
    const window = toSqlWindow(page);
    const [rows, total] = await manager.getRepository(SendEntity).findAndCount({
      where: { workspaceId, notificationId: notification.id },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: window.offset,
      take: window.limit,
    });
    const sends = await sendsWithCounts(manager, rows);
    return toListBody(
      sends.map(({ send, counts }) => sendResource(send, counts)),
      pageMeta(total, page),
    );
  }
}

/** One send, with its counts. */
@Controller('internal/v1/notification-sends')
export class SendsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get(':id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: Record<string, unknown> }> {
    const manager = this.dataSource.manager;
    const send = await foundByPathId(rawId, 'Notification send', (id) =>
      manager.getRepository(SendEntity).findOneBy({ id, workspaceId }),
    );
    const [read] = await sendsWithCounts(manager, [send]);
    return { data: sendResource(read!.send, read!.counts) };
  }
}
