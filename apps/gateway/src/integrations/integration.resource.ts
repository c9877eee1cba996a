import type { IntegrationEntity } from './integration.entity';

/** An integration as every answer shows it: never the token, the signing secret or the credentials. */
export function integrationResource(integration: IntegrationEntity): Record<string, unknown> {
  return {
    id: integration.id,
    type: integration.type,
    name: integration.name,
    config: integration.config,
    created_at: integration.createdAt.toISOString(),
    updated_at: integration.updatedAt.toISOString(),
  };
}
