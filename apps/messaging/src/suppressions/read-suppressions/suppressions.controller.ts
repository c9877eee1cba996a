import { CHANNEL_TYPES, SUPPRESSION_ID_PATTERN, SUPPRESSION_LIST_REASONS } from '@cms/contracts';
import {
  choiceFilter,
  filterParam,
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
import { DataSource, type FindOptionsWhere } from 'typeorm';

import { SuppressionEntity } from '../../messages/message.entity';
import { addressFilter } from '../suppression-address';
import { suppressionResource, type SuppressionResource } from '../suppression.resource';

/** The reads the gateway proxies for /api/v1/suppressions. */
@Controller('internal/v1/suppressions')
export class SuppressionsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Oldest first; `filter[channel]`, `filter[address]` (normalised like entries), `filter[reason]`. */
  @Get()
  async list(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<SuppressionResource>> {
    const page = parsePagination(query);
    onlyFilters(query, ['channel', 'address', 'reason']);
    const where: FindOptionsWhere<SuppressionEntity> = { workspaceId };
    const channel = choiceFilter(query, 'channel', CHANNEL_TYPES);
    if (channel !== undefined) where.channel = channel;
    const address = filterParam(query, 'address');
    if (address !== undefined) where.address = addressFilter(address);
    const reason = choiceFilter(query, 'reason', SUPPRESSION_LIST_REASONS);
    if (reason !== undefined) where.reason = reason;
    const window = toSqlWindow(page);
    const [rows, total] = await this.dataSource.manager.findAndCount(SuppressionEntity, {
      where,
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    return toListBody(rows.map(suppressionResource), pageMeta(total, page));
  }

  @Get(':id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') id: string,
  ): Promise<{ data: SuppressionResource }> {
    const entry = SUPPRESSION_ID_PATTERN.test(id)
      ? await this.dataSource.manager.findOneBy(SuppressionEntity, { workspaceId, id })
      : null;
    if (entry === null) throw JsonApiException.notFound(`Suppression ${id} was not found.`);
    return { data: suppressionResource(entry) };
  }
}
