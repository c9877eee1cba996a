import type { Permission, Plan } from '@cms/contracts';

/** Who is calling: resolved from the API key on every public request. */
export interface Principal {
  apiKeyId: number;
  workspaceId: number;
  plan: Plan;
  permissions: ReadonlySet<Permission>;
}

export interface PrincipalRequest {
  principal?: Principal;
}
