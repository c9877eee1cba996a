import { GATEWAY_REQUEST_TYPES } from '@cms/contracts';
import { JsonApiException } from '@cms/http';
import {
  Body,
  Controller,
  Delete,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';

import { mintApiKey } from '../auth/api-key.secret';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { WritePathService } from '../write-path/write-path.service';
import { AdminGuard } from './admin.guard';
import { ApiKeyEntity } from './api-key.entity';
import { CreateApiKeyDto, CreateWorkspaceDto, UpdateWorkspaceDto } from './workspaces.dto';

/** Path ids arrive as strings; anything but a positive integer names nothing (extensions §1). */
export function parseId(raw: string, what: string): number {
  const id = /^[1-9][0-9]{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw JsonApiException.notFound(`${what} ${raw} was not found.`);
  return id;
}

@Controller('admin/v1')
@UseGuards(AdminGuard)
export class AdminController {
  constructor(
    @Inject(WritePathService) private readonly writePath: WritePathService,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
    @Inject(DataSource) private readonly dataSource: DataSource,
  ) {}

  @Post('workspaces')
  @HttpCode(201)
  async createWorkspace(@Body() body: CreateWorkspaceDto): Promise<{ data: unknown }> {
    const id = await this.ids.next('workspace');
    const answer = await this.writePath.submit({
      type: GATEWAY_REQUEST_TYPES.workspaceCreate,
      workspaceId: id,
      subject: String(id),
      data: { workspace_id: id, name: body.name, plan: body.plan },
    });
    return { data: answer.resource };
  }

  @Patch('workspaces/:id')
  @HttpCode(200)
  async updateWorkspace(
    @Param('id') rawId: string,
    @Body() body: UpdateWorkspaceDto,
  ): Promise<{ data: unknown }> {
    const id = parseId(rawId, 'Workspace');
    const answer = await this.writePath.submit({
      type: GATEWAY_REQUEST_TYPES.workspaceUpdate,
      workspaceId: id,
      subject: String(id),
      data: {
        workspace_id: id,
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.plan !== undefined ? { plan: body.plan } : {}),
      },
    });
    return { data: answer.resource };
  }

  @Post('workspaces/:id/api-keys')
  @HttpCode(201)
  async createApiKey(@Param('id') rawId: string, @Body() body: CreateApiKeyDto): Promise<{ data: unknown }> {
    const workspaceId = parseId(rawId, 'Workspace');
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
  async deleteApiKey(
    @Param('id') rawId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const id = parseId(rawId, 'API key');
    // The request is keyed by the key's workspace so it is ordered with that workspace's other writes.
    const key = await this.dataSource
      .getRepository(ApiKeyEntity)
      .findOne({ where: { id }, select: { id: true, workspaceId: true, deletedAt: true } });
    if (!key || key.deletedAt) throw JsonApiException.notFound(`API key ${rawId} was not found.`);
    const answer = await this.writePath.submit({
      type: GATEWAY_REQUEST_TYPES.apiKeyDelete,
      workspaceId: key.workspaceId,
      subject: String(id),
      data: { api_key_id: id },
    });
    void reply.status(answer.status);
  }
}
