import { IMPORT_JOB_STATUSES, type ImportJobStatus } from '@cms/contracts';
import {
  JsonApiException,
  ListQuery,
  onlyFilters,
  pageMeta,
  parsePagination,
  toListBody,
  toSqlWindow,
  WORKSPACE_HEADER,
  WorkspaceId,
  workspaceIdFrom,
  type ListBody,
  type QueryParams,
  foundByPathId,
} from '@cms/http';
import { Controller, Get, Headers, Inject, Param } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { ImportJobRepository } from '../import-job.repository';
import { importJobResource } from '../import-job.resource';

function isStatus(value: string): value is ImportJobStatus {
  return (IMPORT_JOB_STATUSES as readonly string[]).includes(value);
}

/** `status=running` or `status=queued,running`: the jobs in any of them; absent: every job. */
function parseStatuses(raw: unknown): ImportJobStatus[] | undefined {
  if (raw === undefined) return undefined;
  const statuses = typeof raw === 'string' ? raw.split(',') : [];
  if (statuses.length === 0 || !statuses.every(isStatus)) {
    throw JsonApiException.validation([
      {
        detail: `The status must be one or more of ${IMPORT_JOB_STATUSES.join(', ')}, separated by commas.`,
        source: { pointer: '/data/attributes/status', parameter: 'status' },
      },
    ]);
  }
  return statuses;
}

/** Import jobs as the gateway and the operator read them. */
@Controller('internal/v1/audience-import/jobs')
export class ImportJobsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Jobs oldest first, with their workspace: of the workspace in x-workspace-id, or, without the header,
   * of every workspace (what `ops imports` shows the operator; the gateway always names one).
   */
  @Get()
  async list(
    @Headers(WORKSPACE_HEADER) workspaceHeader: string | undefined,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const workspaceId = workspaceHeader === undefined ? undefined : workspaceIdFrom(workspaceHeader);
    const { status, ...rest } = query;
    const page = parsePagination(rest);
    onlyFilters(rest, []);
    const jobs = new ImportJobRepository(this.dataSource.manager);
    const { rows, total } = await jobs.list(workspaceId, parseStatuses(status), toSqlWindow(page));
    const lastChunks = await jobs.lastChunkTimes(rows.map((row) => row.id));
    return toListBody(
      rows.map((row) => ({
        ...importJobResource(row, lastChunks.get(row.id) ?? null),
        workspace_id: row.workspaceId,
      })),
      pageMeta(total, page),
    );
  }

  /** Another workspace's job, or an id that names none, is 404. */
  @Get(':id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: Record<string, unknown> }> {
    const jobs = new ImportJobRepository(this.dataSource.manager);
    const job = await foundByPathId(rawId, 'Import job', (id) => jobs.findInWorkspace(workspaceId, id));
    return { data: importJobResource(job, await jobs.lastChunkAt(job.id)) };
  }
}
