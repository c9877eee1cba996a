import type { SqlWindow } from '@cms/http';
import { idFromDatabase } from '@cms/persistence';
import type { EntityManager, Repository } from 'typeorm';

import { WebhookEndpointEntity } from './webhook-endpoint.entity';

/** A UUID as Postgres accepts it; anything else names no endpoint (and would fail the query). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A switched-on endpoint, with what decides whether it receives a fact. */
export interface Receiver {
  id: string;
  workspaceId: number;
  eventTypes: string[];
  createdAt: Date;
}

export class WebhookEndpointRepository {
  private readonly endpoints: Repository<WebhookEndpointEntity>;

  constructor(private readonly manager: EntityManager) {
    this.endpoints = manager.getRepository(WebhookEndpointEntity);
  }

  /** The endpoint, when it exists and belongs to the workspace. */
  async findInWorkspace(workspaceId: number, id: string): Promise<WebhookEndpointEntity | null> {
    if (!UUID_PATTERN.test(id)) return null;
    return this.endpoints.findOneBy({ id, workspaceId });
  }

  exists(id: string): Promise<boolean> {
    return this.endpoints.existsBy({ id });
  }

  countInWorkspace(workspaceId: number): Promise<number> {
    return this.endpoints.countBy({ workspaceId });
  }

  async insert(endpoint: WebhookEndpointEntity): Promise<void> {
    await this.endpoints.insert(endpoint);
  }

  async save(endpoint: WebhookEndpointEntity): Promise<void> {
    await this.endpoints.save(endpoint);
  }

  /** Its deliveries (their attempts go with them, ON DELETE CASCADE) and its failure count go with it. */
  async delete(id: string): Promise<void> {
    await this.endpoints.delete({ id });
    await this.manager.query('DELETE FROM webhook_deliveries WHERE endpoint_id = $1', [id]);
    await this.manager.query('DELETE FROM webhook_endpoint_failures WHERE endpoint_id = $1', [id]);
  }

  /** Failed deliveries in a row of each endpoint (0 for those not in the answer). */
  async failureCounts(ids: readonly string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows: Array<{ endpoint_id: string; consecutive_failures: number }> = await this.manager.query(
      'SELECT endpoint_id, consecutive_failures FROM webhook_endpoint_failures WHERE endpoint_id = ANY ($1::uuid[])',
      [ids],
    );
    return new Map(rows.map((row) => [row.endpoint_id, row.consecutive_failures]));
  }

  async failureCount(id: string): Promise<number> {
    return (await this.failureCounts([id])).get(id) ?? 0;
  }

  /** Switched on again: its count starts over. */
  async resetFailures(id: string): Promise<void> {
    await this.manager.query('DELETE FROM webhook_endpoint_failures WHERE endpoint_id = $1', [id]);
  }

  async list(
    workspaceId: number,
    window: SqlWindow,
  ): Promise<{ rows: WebhookEndpointEntity[]; total: number }> {
    const [rows, total] = await this.endpoints.findAndCount({
      where: { workspaceId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }

  /**
   * The switched-on endpoints of the workspaces, in id order, with what decides whether one receives
   * a fact: its event types and when it was created (replaying old facts never reaches a newer one).
   */
  async receivers(workspaceIds: readonly number[]): Promise<Receiver[]> {
    if (workspaceIds.length === 0) return [];
    const rows: Array<{ id: string; workspace_id: string; event_types: string[]; created_at: Date }> =
      await this.manager.query(
        `SELECT id, workspace_id, event_types, created_at FROM webhook_endpoints
          WHERE workspace_id = ANY ($1::bigint[]) AND enabled
          ORDER BY id`,
        [workspaceIds],
      );
    return rows.map((row) => ({
      id: row.id,
      workspaceId: idFromDatabase(row.workspace_id),
      eventTypes: row.event_types,
      createdAt: row.created_at,
    }));
  }
}
