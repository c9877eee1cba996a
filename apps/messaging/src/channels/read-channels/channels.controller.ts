import {
  JsonApiException,
  ListQuery,
  onlyFilters,
  pageMeta,
  parsePagination,
  parseUuid,
  toListBody,
  toSqlWindow,
  WorkspaceId,
  type ListBody,
  type QueryParams,
} from '@cms/http';
import { Controller, Get, Inject, Param } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { ChannelRepository } from '../channel.repository';
import { channelResource } from '../channel.resource';

/** The reads the gateway proxies to this service, in the workspace it authenticated (x-workspace-id). */
@Controller('internal/v1/channels')
export class ChannelsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get()
  async list(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const page = parsePagination(query);
    onlyFilters(query, []);
    const { rows, total } = await new ChannelRepository(this.dataSource.manager).list(
      workspaceId,
      toSqlWindow(page),
    );
    return toListBody(rows.map(channelResource), pageMeta(total, page));
  }

  @Get(':id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: Record<string, unknown> }> {
    // Anything else names nothing, and must not reach the uuid column: Postgres would refuse it (a 500).
    const id = parseUuid(rawId);
    const channel =
      id === undefined
        ? null
        : await new ChannelRepository(this.dataSource.manager).findInWorkspace(workspaceId, id);
    if (!channel) throw JsonApiException.notFound(`Channel ${rawId} was not found.`);
    return { data: channelResource(channel) };
  }
}
