import type { WorkspaceCreateRequestedV1, WorkspaceUpdateRequestedV1 } from '@cms/contracts';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * A workspace's plan record (workspace.create/update.requested, decided and answered by the gateway):
 * its stored-contacts limit becomes the one every later request of the workspace is judged by. The
 * workspace's plan records and contact writes share a partition (both are keyed by the workspace), so
 * "later" is log order, whatever limit the gateway's cached key put into a request. A record without a
 * limit (a name change, or a record older than the field) leaves the limit as it was.
 */
@Injectable()
export class ApplyPlanLimitHandler {
  async handle(
    manager: EntityManager,
    plan: WorkspaceCreateRequestedV1 | WorkspaceUpdateRequestedV1,
  ): Promise<void> {
    if (plan.contact_limit === undefined) return;
    await manager.query(
      `INSERT INTO workspace_usage (workspace_id, contacts, contact_limit) VALUES ($1, 0, $2)
       ON CONFLICT (workspace_id) DO UPDATE SET contact_limit = EXCLUDED.contact_limit`,
      [plan.workspace_id, plan.contact_limit],
    );
  }
}
