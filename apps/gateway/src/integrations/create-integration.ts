import { INTEGRATION_FACT_TYPES, type IntegrationCreateRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';

import { GatewayException } from '../decisions/gateway.exception';
import { WorkspaceEntity } from '../workspaces/workspace.entity';
import type { IntegrationConfig } from './integration.entity';
import { IntegrationRepository } from './integration.repository';
import { integrationResource } from './integration.resource';

/**
 * POST /api/v1/integrations. The record carries the secrets sealed; they are stored as they arrive
 * and never opened here.
 */
export async function createIntegration(decision: Decision<IntegrationCreateRequestedV1>): Promise<Answer> {
  const { data, workspaceId } = decision;
  const integrations = new IntegrationRepository(decision.manager);
  if (!(await decision.manager.getRepository(WorkspaceEntity).existsBy({ id: workspaceId }))) {
    throw GatewayException.workspaceNotFound(workspaceId);
  }
  if ((await integrations.idTaken(data.integration_id)) || (await integrations.tokenTaken(data.token_hash))) {
    throw GatewayException.alreadyExists('Integration', data.integration_id);
  }
  const config: IntegrationConfig = {
    sync_frequency: data.config.sync_frequency ?? null,
    field_mappings: (data.config.field_mappings ?? []).map(({ source, target }) => ({ source, target })),
  };
  const integration = {
    id: data.integration_id,
    workspaceId,
    type: data.type,
    name: data.name,
    config,
    credentialsSealed: data.credentials_sealed ?? null,
    signingSecretSealed: data.signing_secret_sealed,
    tokenHash: data.token_hash,
    createdAt: decision.atDate,
    updatedAt: decision.atDate,
  };
  await integrations.insert(integration);
  decision.fact(INTEGRATION_FACT_TYPES.created, String(integration.id), {
    integration_id: integration.id,
    workspace_id: workspaceId,
    type: integration.type,
    name: integration.name,
    at: decision.at,
  });
  return { status: 201, resource: integrationResource(integration) };
}
