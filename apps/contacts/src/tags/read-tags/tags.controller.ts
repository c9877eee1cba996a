import {
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
import { TagRepository } from '../tag.repository';
import { tagResource } from '../tag.resource';

/** The reads the gateway proxies for GET /api/v1/tags[/{id}]. */
@Controller('internal/v1/tags')
export class TagsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get()
  async list(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const page = parsePagination(query);
    onlyFilters(query, []);
    const { rows, total } = await new TagRepository(this.dataSource.manager).list(
      workspaceId,
      toSqlWindow(page),
    );
    return toListBody(rows.map(tagResource), pageMeta(total, page));
  }

  @Get(':id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: Record<string, unknown> }> {
    const id = parseId(rawId, 'Tag');
    const tag = await new TagRepository(this.dataSource.manager).findOne(workspaceId, id);
    if (!tag) throw JsonApiException.notFound(`Tag ${rawId} was not found.`);
    return { data: tagResource(tag) };
  }
}
