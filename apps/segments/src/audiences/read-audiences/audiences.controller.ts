import {
  AUDIENCE_SOURCES,
  DEFAULT_PREVIEW_LIMIT,
  type AudienceSource,
  PreviewAudienceBody,
} from '@cms/contracts';
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
  foundByPathId,
} from '@cms/http';
import { Body, Controller, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { SegmentsException } from '../../decisions/segments.exception';
import { AudienceEvaluator, definitionOf } from '../audience-evaluation';
import { AudienceRules } from '../audience-rules';
import { AudienceRepository } from '../audience.repository';
import { audienceResource } from '../audience.resource';
import { AudienceEntity } from '../audience.entity';
import { PreviewContacts } from './preview-contacts';

/** A rule of §11 broken by a read's body: the same errors a write's outcome would carry. */
async function asRead<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SegmentsException) throw new JsonApiException(error.status, error.toErrors());
    throw error;
  }
}

/**
 * The reads the gateway proxies to this service, in the workspace it authenticated (x-workspace-id):
 * audiences with their exact size as of the answer, and the preview of any definition.
 */
@Controller('internal/v1')
export class AudiencesController {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(AudienceEvaluator) private readonly evaluator: AudienceEvaluator,
    @Inject(PreviewContacts) private readonly previewContacts: PreviewContacts,
  ) {}

  @Get('audiences')
  async list(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const page = parsePagination(query);
    const filters = listFilters(query);
    const { rows, total } = await new AudienceRepository(this.dataSource.manager).list(
      workspaceId,
      toSqlWindow(page),
      filters,
    );
    const now = Date.now();
    const resources: Record<string, unknown>[] = [];
    for (const audience of rows) resources.push(audienceResource(audience, await this.size(audience, now)));
    return toListBody(resources, pageMeta(total, page));
  }

  @Get('audiences/:id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: Record<string, unknown> }> {
    const audience = await foundByPathId(rawId, 'Audience', (id) =>
      new AudienceRepository(this.dataSource.manager).findInWorkspace(workspaceId, id),
    );
    return { data: audienceResource(audience, await this.size(audience, Date.now())) };
  }

  /**
   * POST /api/v1/audience/preview: the exact count of a definition's members now, the first `limit`
   * of them by id as contacts, and how many of them each channel type could reach with marketing.
   */
  @Post('audience/preview')
  @HttpCode(200)
  async preview(
    @WorkspaceId() workspaceId: number,
    @Body() body: PreviewAudienceBody,
  ): Promise<{ data: Record<string, unknown> }> {
    return asRead(async () => {
      const manager = this.dataSource.manager;
      const rules = new AudienceRules(manager);
      const criteria = await rules.criteria(workspaceId, body.filter_criteria);
      const include = await rules.contacts(workspaceId, 'include_contact_ids', body.include_contact_ids);
      const exclude = await rules.contacts(workspaceId, 'exclude_contact_ids', body.exclude_contact_ids);
      const now = Date.now();
      const { index, set } = await this.evaluator.members(
        manager,
        workspaceId,
        { criteria, include, exclude },
        now,
      );
      const count = index.count(set);
      const sampleIds = index.sample(set, body.limit ?? DEFAULT_PREVIEW_LIMIT);
      const reachable = index.reachable(set);
      const sample = await this.previewContacts.contacts(workspaceId, sampleIds);
      return { data: { count, sample, reachable, computed_at: new Date(now).toISOString() } };
    });
  }

  private async size(audience: AudienceEntity, now: number): Promise<number> {
    const { index, set } = await this.evaluator.members(
      this.dataSource.manager,
      audience.workspaceId,
      definitionOf(audience),
      now,
      audience.id,
    );
    return index.count(set);
  }
}

function listFilters(query: QueryParams): { name?: string; source?: AudienceSource } {
  onlyFilters(query, ['name', 'source']);
  const name = filterParam(query, 'name');
  const source = choiceFilter(query, 'source', AUDIENCE_SOURCES);
  return { ...(name !== undefined ? { name } : {}), ...(source !== undefined ? { source } : {}) };
}
