import { GATEWAY_REQUEST_TYPES } from '@cms/contracts';
import { JsonApiException } from '@cms/http';
import { Body, Controller, Delete, HttpCode, Inject, Patch, Post, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';

import { mintApiKey } from '../auth/api-key.secret';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { PathId } from '../ids/path-id.decorator';
import { Documented, one } from '../openapi/documented.decorator';
import { WritePathService } from '../write-path/write-path.service';
import { AdminGuard } from './admin.guard';
import { ApiKeyEntity } from './api-key.entity';
import { CreateApiKeyDto, CreateWorkspaceDto, UpdateWorkspaceDto } from './workspaces.dto';

@Controller('admin/v1')
@UseGuards(AdminGuard)
export class AdminController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(WritePathService) private readonly writePath: WritePathService,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
    @Inject(DataSource) private readonly dataSource: DataSource,
  ) {}

  @Post('workspaces')
  @HttpCode(201)
  @Documented({
    tag: 'Workspaces',
    summary: 'Create a workspace',
    description: 'Operator token only. `plan` is one of starter, pro, business, agency.',
    answers: { 201: { description: 'Created: the workspace.', schema: one('WorkspaceCreated') } },
  })
  async createWorkspace(@Body() body: CreateWorkspaceDto): Promise<{ data: unknown }> {
    const id = await this.ids.next('workspace');
    const answer = await this.writePath.submit({
      type: GATEWAY_REQUEST_TYPES.workspaceCreate,
      workspaceId: id,
      subject: String(id),
      data: {
        workspace_id: id,
        name: body.name,
        plan: body.plan,
        contact_limit: this.config.plans[body.plan].storedContacts,
      },
    });
    return { data: answer.resource };
  }

  @Patch('workspaces/:id')
  @HttpCode(200)
  @Documented({
    tag: 'Workspaces',
    summary: 'Rename a workspace or change its plan',
    description:
      'Only the fields sent change (a `null` `name` or `plan` is 422). A plan change applies to every ' +
      'request recorded after it, on every gateway replica.',
    answers: { 200: { description: 'The workspace as updated.', schema: one('Workspace') } },
  })
  async updateWorkspace(
    @PathId('id', 'Workspace') id: number,
    @Body() body: UpdateWorkspaceDto,
  ): Promise<{ data: unknown }> {
    const answer = await this.writePath.submit({
      type: GATEWAY_REQUEST_TYPES.workspaceUpdate,
      workspaceId: id,
      subject: String(id),
      data: {
        workspace_id: id,
        ...(body.name !== undefined ? { name: body.name } : {}),
        // The limit travels with the plan change, so services judge every later write by it (in log order).
        ...(body.plan !== undefined
          ? { plan: body.plan, contact_limit: this.config.plans[body.plan].storedContacts }
          : {}),
      },
    });
    return { data: answer.resource };
  }

  @Post('workspaces/:id/api-keys')
  @HttpCode(201)
  @Documented({
    tag: 'API keys',
    summary: 'Create an API key for a workspace',
    description:
      '`permissions` is a non-empty subset of read, create, update, delete, each once. The key itself is ' +
      'in this answer only: it is stored as its hash.',
    answers: { 201: { description: 'Created: the key, with `key`.', schema: one('ApiKeyCreated') } },
  })
  async createApiKey(
    @PathId('id', 'Workspace') workspaceId: number,
    @Body() body: CreateApiKeyDto,
  ): Promise<{ data: unknown }> {
    const id = await this.ids.next('api_key');
    const minted = mintApiKey();
    const answer = await this.writePath.submit({
      type: GATEWAY_REQUEST_TYPES.apiKeyCreate,
      workspaceId,
      subject: String(id),
      data: {
        api_key_id: id,
        workspace_id: workspaceId,
        name: body.name,
        permissions: body.permissions,
        key_hash: minted.hash,
        key_prefix: minted.prefix,
      },
    });
    // The key itself never enters the log or the database: this answer is the only place it appears.
    return { data: { ...answer.resource, key: minted.key } };
  }

  @Delete('api-keys/:id')
  @Documented({
    tag: 'API keys',
    summary: 'Delete an API key',
    description:
      'The key is refused (401) from then on, on every gateway replica within 5 seconds. A key already ' +
      'deleted is 404.',
    answers: { 204: { description: 'Deleted; no body.' } },
  })
  async deleteApiKey(
    @PathId('id', 'API key') id: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    // The request is keyed by the key's workspace so it is ordered with that workspace's other writes.
    const key = await this.dataSource
      .getRepository(ApiKeyEntity)
      .findOne({ where: { id }, select: { id: true, workspaceId: true, deletedAt: true } });
    if (!key || key.deletedAt) throw JsonApiException.notFound(`API key ${id} was not found.`);
    const answer = await this.writePath.submit({
      type: GATEWAY_REQUEST_TYPES.apiKeyDelete,
      workspaceId: key.workspaceId,
      subject: String(id),
      data: { api_key_id: id },
    });
    void reply.status(answer.status);
  }
}
