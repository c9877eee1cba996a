import {
  choiceFilter,
  integerFilter,
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

import { WorkflowRepository } from '../../workflows/workflow.repository';
import { RunReadsRepository } from '../run-reads.repository';
import { outcomeResource, runResource, RUN_STATUSES } from '../run.resource';

/**
 * `GET /api/v1/workflows/{id}/runs` (extensions §12, Runs), as the gateway proxies it in the workspace
 * it authenticated (x-workspace-id): newest first; `filter[status]` and `filter[contact_id]`.
 */
@Controller('internal/v1/workflows')
export class WorkflowRunsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** A workflow that does not exist in the workspace (deleted ones included) is 404. */
  @Get(':id/runs')
  async list(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const workflow = await foundByPathId(rawId, 'Workflow', (id) =>
      new WorkflowRepository(this.dataSource.manager).findInWorkspace(workspaceId, id),
    );
    const page = parsePagination(query);
    onlyFilters(query, ['status', 'contact_id']);
    const status = choiceFilter(query, 'status', RUN_STATUSES);
    const contactId = integerFilter(query, 'contact_id');
    const { rows, total } = await new RunReadsRepository(this.dataSource.manager).listRuns(
      workspaceId,
      workflow.id,
      {
        ...(status === undefined ? {} : { status }),
        ...(contactId === undefined ? {} : { contactId }),
      },
      toSqlWindow(page),
    );
    return toListBody(rows.map(runResource), pageMeta(total, page));
  }
}

/** `GET /api/v1/workflow-runs/{id}`: a run of the workspace, its workflow deleted or not. */
@Controller('internal/v1/workflow-runs')
export class RunsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get(':id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: Record<string, unknown> }> {
    const run = await foundByPathId(rawId, 'Workflow run', (id) =>
      new RunReadsRepository(this.dataSource.manager).findRun(workspaceId, id),
    );
    return { data: runResource(run) };
  }
}

/**
 * `GET /api/v1/outcomes[/{id}]` (extensions §12, Goals and outcomes): read only, newest first;
 * `filter[workflow_id]` and `filter[contact_id]`.
 */
@Controller('internal/v1/outcomes')
export class OutcomesController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get()
  async list(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const page = parsePagination(query);
    onlyFilters(query, ['workflow_id', 'contact_id']);
    const workflowId = integerFilter(query, 'workflow_id');
    const contactId = integerFilter(query, 'contact_id');
    const { rows, total } = await new RunReadsRepository(this.dataSource.manager).listOutcomes(
      workspaceId,
      {
        ...(workflowId === undefined ? {} : { workflowId }),
        ...(contactId === undefined ? {} : { contactId }),
      },
      toSqlWindow(page),
    );
    return toListBody(rows.map(outcomeResource), pageMeta(total, page));
  }

  @Get(':id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: Record<string, unknown> }> {
    const outcome = await foundByPathId(rawId, 'Outcome', (id) =>
      new RunReadsRepository(this.dataSource.manager).findOutcome(workspaceId, id),
    );
    return { data: outcomeResource(outcome) };
  }
}
