import { CHANNEL_TYPES } from '@cms/contracts';
import {
  choiceFilter,
  filterParam,
  integerFilter,
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

import { linksOf } from '../../links/link-rows';
import { MessageEntity } from '../message.entity';
import { messageResource, type MessageResource } from '../message.resource';

const FILTERS = ['status', 'channel', 'contact_id', 'workflow_id', 'campaign_id', 'direction'] as const;

/** The reads the gateway proxies for GET /api/v1/messages[/{id}]: newest first. */
@Controller('internal/v1/messages')
export class MessagesController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get()
  async list(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<MessageResource>> {
    const page = parsePagination(query);
    onlyFilters(query, FILTERS);
    const builder = this.dataSource.manager
      .createQueryBuilder(MessageEntity, 'message')
      .where('message.workspace_id = :workspaceId', { workspaceId });
    const status = filterParam(query, 'status');
    if (status !== undefined) builder.andWhere('message.status = :status', { status });
    const channel = choiceFilter(query, 'channel', CHANNEL_TYPES);
    if (channel !== undefined) builder.andWhere('message.channel_type = :channel', { channel });
    const direction = choiceFilter(query, 'direction', ['outbound', 'inbound'] as const);
    if (direction !== undefined) builder.andWhere('message.direction = :direction', { direction });
    const contactId = integerFilter(query, 'contact_id');
    if (contactId !== undefined) builder.andWhere('message.contact_id = :contactId', { contactId });
    const campaignId = integerFilter(query, 'campaign_id');
    if (campaignId !== undefined) builder.andWhere('message.campaign_id = :campaignId', { campaignId });
    const workflowId = integerFilter(query, 'workflow_id');
    if (workflowId !== undefined) {
      builder.andWhere("(message.workflow ->> 'id')::bigint = :workflowId", { workflowId });
    }
    const window = toSqlWindow(page);
    const [rows, total] = await builder
      .orderBy('message.created_at', 'DESC')
      .addOrderBy('message.id', 'DESC')
      .skip(window.offset)
      .take(window.limit)
      .getManyAndCount();
    const links = await linksOf(
      this.dataSource.manager,
      rows.map((row) => row.id),
    );
    return toListBody(
      rows.map((row) => messageResource(row, links.get(row.id))),
      pageMeta(total, page),
    );
  }

  @Get(':id')
  async one(@WorkspaceId() workspaceId: number, @Param('id') id: string): Promise<{ data: MessageResource }> {
    const message = /^msg_[0-9a-f]{32}$/.test(id)
      ? await this.dataSource.manager.findOneBy(MessageEntity, { id, workspaceId })
      : null;
    if (message === null) throw JsonApiException.notFound(`Message ${id} was not found.`);
    const links = await linksOf(this.dataSource.manager, [message.id]);
    return { data: messageResource(message, links.get(message.id)) };
  }
}
