import { CHANNEL_TYPES } from '@cms/contracts';
import {
  choiceFilter,
  JsonApiException,
  ListQuery,
  onlyFilters,
  pageMeta,
  parsePagination,
  toListBody,
  toSqlWindow,
  WorkspaceId,
  type ListBody,
  type QueryParams,
} from '@cms/http';
import { Controller, Get, Inject, Param } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { parseId } from '../../reads/query-params';
import { ChannelRepository } from '../channel.repository';
import { channelResource, type ChannelResource } from '../channel.resource';
import { ChannelCredentials } from '../channel-credentials';

/** The reads the gateway proxies for GET /api/v1/channels[/{id}]; credentials only masked. */
@Controller('internal/v1/channels')
export class ChannelsController {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(ChannelCredentials) private readonly secrets: ChannelCredentials,
  ) {}

  /** Oldest first; `filter[type]`. */
  @Get()
  async list(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<ChannelResource>> {
    const page = parsePagination(query);
    onlyFilters(query, ['type']);
    const type = choiceFilter(query, 'type', CHANNEL_TYPES);
    const channels = new ChannelRepository(this.dataSource.manager);
    const { rows, total } = await channels.list(workspaceId, type, toSqlWindow(page));
    return toListBody(
      rows.map((row) => channelResource(row, this.secrets)),
      pageMeta(total, page),
    );
  }

  @Get(':id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: ChannelResource }> {
    const id = parseId(rawId, 'Channel');
    const channel = await new ChannelRepository(this.dataSource.manager).findInWorkspace(workspaceId, id);
    if (!channel) throw JsonApiException.notFound(`Channel ${rawId} was not found.`);
    return { data: channelResource(channel, this.secrets) };
  }
}
