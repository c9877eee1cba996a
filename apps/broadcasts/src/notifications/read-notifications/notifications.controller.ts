import {
  choiceFilter,
  filterParam,
  integerFilter,
  JsonApiException,
  ListQuery,
  onlyFilters,
  pageMeta,
  parseIdentifier,
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

import { NotificationRepository, type NotificationFilters } from '../notification.repository';
import { notificationResource } from '../notification.resource';

/** The filters of the specification's list, as its query names them. */
const FILTERS = [
  'name',
  'template_name',
  'schedule',
  'target_group_id',
  'target_group.name',
  'enabled',
  'search',
] as const;

function filtersOf(query: QueryParams): NotificationFilters {
  onlyFilters(query, FILTERS);
  const enabled = choiceFilter(query, 'enabled', ['true', 'false'] as const);
  const values: NotificationFilters = {
    name: filterParam(query, 'name'),
    templateName: filterParam(query, 'template_name'),
    schedule: filterParam(query, 'schedule'),
    targetGroupId: integerFilter(query, 'target_group_id'),
    targetGroupName: filterParam(query, 'target_group.name'),
    enabled: enabled === undefined ? undefined : enabled === 'true',
    search: filterParam(query, 'search'),
  };
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

/** The reads the gateway proxies to this service, in the workspace it authenticated (x-workspace-id). */
@Controller('internal/v1/notifications')
export class NotificationsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Oldest first, with every filter of the specification. */
  @Get()
  async list(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const page = parsePagination(query);
    const { rows, total } = await new NotificationRepository(this.dataSource.manager).list(
      workspaceId,
      filtersOf(query),
      toSqlWindow(page),
    );
    return toListBody(rows.map(notificationResource), pageMeta(total, page));
  }

  @Get(':id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: Record<string, unknown> }> {
    const notification = await foundByPathId(rawId, 'Notification', (id) =>
      new NotificationRepository(this.dataSource.manager).findInWorkspace(workspaceId, id),
    );
    return { data: notificationResource(notification) };
  }
}

/**
 * The notifications that name a template or an audience: the gateway asks before it records the
 * template's or the audience's delete (extensions §13: a template or audience a notification uses
 * cannot be deleted; deleting the notification frees them at once).
 */
@Controller('internal/v1')
export class NotificationUsesController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get('templates/:id/notifications')
  usingTemplate(@WorkspaceId() workspaceId: number, @Param('id') rawId: string): Promise<UsesBody> {
    return this.using(workspaceId, 'template', rawId);
  }

  @Get('audiences/:id/notifications')
  usingAudience(@WorkspaceId() workspaceId: number, @Param('id') rawId: string): Promise<UsesBody> {
    return this.using(workspaceId, 'audience', rawId);
  }

  private async using(
    workspaceId: number,
    reference: 'template' | 'audience',
    rawId: string,
  ): Promise<UsesBody> {
    const id = parseIdentifier(rawId);
    if (id === undefined)
      throw JsonApiException.notFound(
        `${reference === 'template' ? 'Template' : 'Audience'} ${rawId} was not found.`,
      );
    const notifications = await new NotificationRepository(this.dataSource.manager).using(
      workspaceId,
      reference,
      id,
    );
    return { data: notifications.map((notification) => ({ id: notification.id, name: notification.name })) };
  }
}

interface UsesBody {
  data: Array<{ id: number; name: string }>;
}
