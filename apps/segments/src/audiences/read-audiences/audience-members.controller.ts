import { foundByPathId, ListQuery, WorkspaceId, type QueryParams } from '@cms/http';
import { Controller, Get, Inject, Param } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { AudienceEvaluator, definitionOf } from '../audience-evaluation';
import { AudienceRepository } from '../audience.repository';
import { membersAnswer, readMembersQuery } from './audience-members';

/**
 * An audience's members now, for the services that start something with them (the automations
 * service's bots, extensions §12): which of some contacts are members, or the members page by page in
 * id order. Evaluated as the audience's size and snapshot are, in the workspace the caller names
 * (x-workspace-id); another workspace's audience is not found.
 */
@Controller('internal/v1/audiences')
export class AudienceMembersController {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(AudienceEvaluator) private readonly evaluator: AudienceEvaluator,
  ) {}

  /**
   * `?contact_ids=1,2,3` → `{audience_id, member_ids}`; `?after=<id>&limit=<n>` →
   * `{audience_id, contact_ids, next_after}`.
   */
  @Get(':id/members')
  async members(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
    @ListQuery() query: QueryParams,
  ): Promise<{ data: Record<string, unknown> }> {
    const asked = readMembersQuery(query);
    const audience = await foundByPathId(rawId, 'Audience', (id) =>
      new AudienceRepository(this.dataSource.manager).findInWorkspace(workspaceId, id),
    );
    const { index, set } = await this.evaluator.members(
      this.dataSource.manager,
      workspaceId,
      definitionOf(audience),
      Date.now(),
      audience.id,
    );
    return { data: membersAnswer(audience.id, index, set, asked) };
  }
}
