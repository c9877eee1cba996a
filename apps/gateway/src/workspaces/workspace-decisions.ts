import {
  GATEWAY_FACT_TYPES,
  type ApiKeyCreateRequestedV1,
  type ApiKeyDeleteRequestedV1,
  type WorkspaceCreateRequestedV1,
  type WorkspaceUpdateRequestedV1,
} from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';

import { GatewayException } from '../decisions/gateway.exception';
import { ApiKeyEntity } from './api-key.entity';
import { WorkspaceEntity } from './workspace.entity';

function workspaceResource(workspace: WorkspaceEntity): Record<string, unknown> {
  return {
    id: workspace.id,
    name: workspace.name,
    plan: workspace.plan,
    created_at: workspace.createdAt.toISOString(),
    updated_at: workspace.updatedAt.toISOString(),
  };
}

/** POST /admin/v1/workspaces. */
export async function createWorkspace(decision: Decision<WorkspaceCreateRequestedV1>): Promise<Answer> {
  const workspaces = decision.manager.getRepository(WorkspaceEntity);
  const { workspace_id: id, name, plan } = decision.data;
  if (await workspaces.existsBy({ id })) throw GatewayException.alreadyExists('Workspace', id);
  const at = decision.atDate;
  const workspace = await workspaces.save(
    workspaces.create({ id, name, plan, createdAt: at, updatedAt: at }),
  );
  decision.fact(GATEWAY_FACT_TYPES.workspaceCreated, undefined, {
    workspace_id: id,
    name,
    plan,
    at: decision.at,
  });
  const { updated_at: _updated, ...resource } = workspaceResource(workspace);
  return { status: 201, resource };
}

/** PATCH /admin/v1/workspaces/:id. */
export async function updateWorkspace(decision: Decision<WorkspaceUpdateRequestedV1>): Promise<Answer> {
  const workspaces = decision.manager.getRepository(WorkspaceEntity);
  const { workspace_id: id, name, plan } = decision.data;
  const workspace = await workspaces.findOneBy({ id });
  if (!workspace) throw GatewayException.workspaceNotFound(id);
  if (name !== undefined) workspace.name = name;
  if (plan !== undefined) workspace.plan = plan;
  workspace.updatedAt = decision.atDate;
  await workspaces.save(workspace);
  decision.fact(GATEWAY_FACT_TYPES.workspaceUpdated, undefined, {
    workspace_id: workspace.id,
    name: workspace.name,
    plan: workspace.plan,
    at: decision.at,
  });
  return { status: 200, resource: workspaceResource(workspace) };
}

/** POST /admin/v1/workspaces/:id/api-keys: the key's hash, never the key. */
export async function createApiKey(decision: Decision<ApiKeyCreateRequestedV1>): Promise<Answer> {
  const {
    api_key_id: id,
    workspace_id: workspaceId,
    name,
    permissions,
    key_hash: keyHash,
    key_prefix: keyPrefix,
  } = decision.data;
  if (!(await decision.manager.getRepository(WorkspaceEntity).existsBy({ id: workspaceId }))) {
    throw GatewayException.workspaceNotFound(workspaceId);
  }
  const createdAt = decision.atDate;
  await decision.manager
    .getRepository(ApiKeyEntity)
    .insert({ id, workspaceId, name, permissions, keyHash, keyPrefix, createdAt, deletedAt: null });
  decision.fact(GATEWAY_FACT_TYPES.apiKeyCreated, undefined, {
    api_key_id: id,
    workspace_id: workspaceId,
    name,
    permissions,
    at: decision.at,
  });
  return {
    status: 201,
    resource: { id, name, permissions, workspace_id: workspaceId, created_at: createdAt.toISOString() },
  };
}

/** DELETE /admin/v1/api-keys/:id: the key stops working, its row stays. */
export async function deleteApiKey(decision: Decision<ApiKeyDeleteRequestedV1>): Promise<Answer> {
  const keys = decision.manager.getRepository(ApiKeyEntity);
  const key = await keys.findOneBy({ id: decision.data.api_key_id });
  if (!key || key.deletedAt) throw GatewayException.apiKeyNotFound(decision.data.api_key_id);
  key.deletedAt = decision.atDate;
  await keys.save(key);
  decision.fact(GATEWAY_FACT_TYPES.apiKeyDeleted, undefined, {
    api_key_id: key.id,
    workspace_id: key.workspaceId,
    at: decision.at,
  });
  return { status: 204 };
}
