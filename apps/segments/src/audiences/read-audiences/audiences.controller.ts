import {
  JsonApiException,
  ListQuery,
  onlyFilters,
  pageMeta,
  parsePagination,
  parseIdentifier,
  toListBody,
  toSqlWindow,
  WorkspaceId,
  type ListBody,
  type QueryParams,
} from '@cms/http';
import { Controller, Get, Inject, Param } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { AudienceRepository } from '../audience.repository';
import { audienceResource } from '../audience.resource';

/** The reads the gateway proxies to this service, in the workspace it authenticated (x-workspace-id). */
@Controller('internal/v1/audiences')
export class AudiencesController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get()
  async list(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const page = parsePagination(query);
    onlyFilters(query, []);
    const { rows, total } = await new AudienceRepository(this.dataSource.manager).list(
      workspaceId,
      toSqlWindow(page),
    );
    return toListBody(
      rows.map((row) => audienceResource(row, 0)),
      pageMeta(total, page),
    );
  }

  @Get(':id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: Record<string, unknown> }> {
    // Anything else names nothing, and must not reach the uuid column: Postgres would refuse it (a 500).
    const id = parseIdentifier(rawId);
    const audience =
      id === undefined
        ? null
        : await new AudienceRepository(this.dataSource.manager).findInWorkspace(workspaceId, id);
    if (!audience) throw JsonApiException.notFound(`Audience ${rawId} was not found.`);
    return { data: audienceResource(audience, 0) };
  }
}
