import { JsonApiException } from '@cms/http';
import { Controller, Get, Inject } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { Documented, one } from '../openapi/documented.decorator';
import { ApiKeyEntity } from './api-key.entity';
import { WorkspaceEntity } from './workspace.entity';

/**
 * `GET /api/v1/api-key`: the key a request is made with, its permissions and its workspace. Any key of a
 * plan with API access may ask (the console signs in with it and shows only what the key may do).
 */
@Controller('api/v1')
export class CurrentKeyController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get('api-key')
  @PublicRoute({ permission: 'any', bucket: 'api', feature: 'api' })
  @Documented({
    tag: 'API keys',
    summary: 'The API key of the request',
    description:
      'The key this request was made with (its id, name and permissions, never its secret) and its ' +
      'workspace. Any key may ask, whatever its permissions; a plan without API access is 403.',
    answers: { 200: { description: 'The key and its workspace.', schema: one('CurrentApiKey') } },
  })
  async current(@Caller() caller: Principal): Promise<{ data: unknown }> {
    const [key, workspace] = await Promise.all([
      this.dataSource.getRepository(ApiKeyEntity).findOneBy({ id: caller.apiKeyId }),
      this.dataSource.getRepository(WorkspaceEntity).findOneBy({ id: caller.workspaceId }),
    ]);
    // Deleted since the key cache read it (at most 5 s ago): the key is refused from now on.
    if (!key || key.deletedAt || !workspace) {
      throw JsonApiException.unauthenticated('The API key is invalid or was deleted.');
    }
    return {
      data: {
        id: key.id,
        name: key.name,
        permissions: key.permissions,
        workspace: { id: workspace.id, name: workspace.name, plan: workspace.plan },
        created_at: key.createdAt.toISOString(),
      },
    };
  }
}
