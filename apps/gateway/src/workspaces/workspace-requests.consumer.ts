import {
  acceptedOutcome,
  createEnvelope,
  deterministicId,
  GATEWAY_FACT_TYPES,
  GATEWAY_REQUEST_TYPES,
  rejectedOutcome,
  type ApiKeyCreateRequestedV1,
  type ApiKeyDeleteRequestedV1,
  type DecodedRecord,
  type WorkspaceCreateRequestedV1,
  type WorkspaceUpdateRequestedV1,
} from '@cms/contracts';
import { recordContext, type RecordContext } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { ApiKeyEntity } from './api-key.entity';
import { WorkspaceEntity } from './workspace.entity';

const SOURCE = 'gateway';

function workspaceResource(workspace: WorkspaceEntity): Record<string, unknown> {
  return {
    id: workspace.id,
    name: workspace.name,
    plan: workspace.plan,
    created_at: workspace.createdAt.toISOString(),
    updated_at: workspace.updatedAt.toISOString(),
  };
}

/**
 * Decides the workspace and API key requests from the ordered log. Everything here is a function of
 * the record and the gateway's own tables, so replaying the log rebuilds the same rows.
 */
@Controller()
export class WorkspaceRequestsConsumer {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  @EventPattern(GATEWAY_REQUEST_TYPES.workspaceCreate)
  async createWorkspace(
    @Payload() record: DecodedRecord<WorkspaceCreateRequestedV1>,
    @Ctx() rawContext: unknown,
  ): Promise<void> {
    const context = recordContext(rawContext);
    const workspaces = context.manager.getRepository(WorkspaceEntity);
    const { workspace_id: id, name, plan } = record.data;
    if (await workspaces.existsBy({ id })) {
      this.answer(
        context,
        rejectedOutcome(record, SOURCE, 409, [
          { status: '409', title: 'Conflict', detail: `Workspace ${id} already exists.` },
        ]),
      );
      return;
    }
    const at = new Date(record.time);
    const workspace = await workspaces.save(
      workspaces.create({ id, name, plan, createdAt: at, updatedAt: at }),
    );
    this.fact(context, record, GATEWAY_FACT_TYPES.workspaceCreated, {
      workspace_id: id,
      name,
      plan,
      at: record.time,
    });
    const { updated_at: _updated, ...resource } = workspaceResource(workspace);
    this.answer(context, acceptedOutcome(record, SOURCE, 201, resource));
  }

  @EventPattern(GATEWAY_REQUEST_TYPES.workspaceUpdate)
  async updateWorkspace(
    @Payload() record: DecodedRecord<WorkspaceUpdateRequestedV1>,
    @Ctx() rawContext: unknown,
  ): Promise<void> {
    const context = recordContext(rawContext);
    const workspaces = context.manager.getRepository(WorkspaceEntity);
    const workspace = await workspaces.findOneBy({ id: record.data.workspace_id });
    if (!workspace) {
      this.answer(context, this.notFound(record, `Workspace ${record.data.workspace_id} was not found.`));
      return;
    }
    if (record.data.name !== undefined) workspace.name = record.data.name;
    if (record.data.plan !== undefined) workspace.plan = record.data.plan;
    workspace.updatedAt = new Date(record.time);
    await workspaces.save(workspace);
    this.fact(context, record, GATEWAY_FACT_TYPES.workspaceUpdated, {
      workspace_id: workspace.id,
      name: workspace.name,
      plan: workspace.plan,
      at: record.time,
    });
    this.answer(context, acceptedOutcome(record, SOURCE, 200, workspaceResource(workspace)));
  }

  @EventPattern(GATEWAY_REQUEST_TYPES.apiKeyCreate)
  async createApiKey(
    @Payload() record: DecodedRecord<ApiKeyCreateRequestedV1>,
    @Ctx() rawContext: unknown,
  ): Promise<void> {
    const context = recordContext(rawContext);
    const {
      api_key_id: id,
      workspace_id: workspaceId,
      name,
      permissions,
      key_hash: keyHash,
      key_prefix: keyPrefix,
    } = record.data;
    if (!(await context.manager.getRepository(WorkspaceEntity).existsBy({ id: workspaceId }))) {
      this.answer(context, this.notFound(record, `Workspace ${workspaceId} was not found.`));
      return;
    }
    const keys = context.manager.getRepository(ApiKeyEntity);
    const createdAt = new Date(record.time);
    await keys.insert({ id, workspaceId, name, permissions, keyHash, keyPrefix, createdAt, deletedAt: null });
    this.fact(context, record, GATEWAY_FACT_TYPES.apiKeyCreated, {
      api_key_id: id,
      workspace_id: workspaceId,
      name,
      permissions,
      at: record.time,
    });
    this.answer(
      context,
      acceptedOutcome(record, SOURCE, 201, {
        id,
        name,
        permissions,
        workspace_id: workspaceId,
        created_at: createdAt.toISOString(),
      }),
    );
  }

  @EventPattern(GATEWAY_REQUEST_TYPES.apiKeyDelete)
  async deleteApiKey(
    @Payload() record: DecodedRecord<ApiKeyDeleteRequestedV1>,
    @Ctx() rawContext: unknown,
  ): Promise<void> {
    const context = recordContext(rawContext);
    const keys = context.manager.getRepository(ApiKeyEntity);
    const key = await keys.findOneBy({ id: record.data.api_key_id });
    if (!key || key.deletedAt) {
      this.answer(context, this.notFound(record, `API key ${record.data.api_key_id} was not found.`));
      return;
    }
    key.deletedAt = new Date(record.time);
    await keys.save(key);
    this.fact(context, record, GATEWAY_FACT_TYPES.apiKeyDeleted, {
      api_key_id: key.id,
      workspace_id: key.workspaceId,
      at: record.time,
    });
    this.answer(context, acceptedOutcome(record, SOURCE, 204));
  }

  private notFound(record: DecodedRecord, detail: string) {
    return rejectedOutcome(record, SOURCE, 404, [{ status: '404', title: 'Not Found', detail }]);
  }

  private answer(
    context: RecordContext,
    outcome: ReturnType<typeof acceptedOutcome> | ReturnType<typeof rejectedOutcome>,
  ): void {
    context.emit(this.config.topics.outcomes, outcome);
  }

  private fact(
    context: RecordContext,
    record: DecodedRecord,
    type: string,
    data: Record<string, unknown>,
  ): void {
    context.emit(
      this.config.topics.gateway,
      createEnvelope({
        id: deterministicId(record.id, type),
        type,
        source: SOURCE,
        workspaceid: record.workspaceid,
        correlationid: record.correlationid,
        causationid: record.id,
        time: record.time,
        data,
      }),
    );
  }
}
