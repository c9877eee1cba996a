import {
  choiceFilter,
  filterParam,
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

import { WorkflowRepository } from '../workflow.repository';
import { workflowResource } from '../workflow.resource';

/** The reads the gateway proxies to this service, in the workspace it authenticated (x-workspace-id). */
@Controller('internal/v1/workflows')
export class WorkflowsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Oldest first; `filter[enabled]` (true or false) and `filter[name]` (exact). */
  @Get()
  async list(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const page = parsePagination(query);
    onlyFilters(query, ['enabled', 'name']);
    const enabled = choiceFilter(query, 'enabled', ['true', 'false'] as const);
    const name = filterParam(query, 'name');
    const { rows, total } = await new WorkflowRepository(this.dataSource.manager).list(
      workspaceId,
      {
        ...(enabled === undefined ? {} : { enabled: enabled === 'true' }),
        ...(name === undefined ? {} : { name }),
      },
      toSqlWindow(page),
    );
    return toListBody(rows.map(workflowResource), pageMeta(total, page));
  }

  @Get(':id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: Record<string, unknown> }> {
    const workflow = await foundByPathId(rawId, 'Workflow', (id) =>
      new WorkflowRepository(this.dataSource.manager).findInWorkspace(workspaceId, id),
    );
    return { data: workflowResource(workflow) };
  }
}
