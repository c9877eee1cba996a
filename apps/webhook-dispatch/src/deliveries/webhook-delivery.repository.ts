import type {
  WebhookAttemptResource,
  WebhookDeliveryResource,
  WebhookDeliveryStatus,
  WebhookDeliveryType,
} from '@cms/contracts';
import type { SqlWindow } from '@cms/http';
import type { EntityManager } from 'typeorm';

import { UUID_PATTERN } from '../endpoints/webhook-endpoint.repository';
import { rowsOf } from '../infrastructure/returning';

/** A delivery to create: its id is also its envelope's, and `body` is that envelope, serialised once. */
export interface NewDelivery {
  id: string;
  endpointId: string;
  workspaceId: number;
  eventType: WebhookDeliveryType;
  body: string;
  countsTowardSwitchOff: boolean;
  /** The time of the fact or request it comes from; it is also due from then. */
  createdAt: Date;
  /** For events delivered in order: their subject and their fact's offset in its partition. */
  ordered?: { subject: string; factOffset: string };
}

export interface DeliveryFilters {
  status?: WebhookDeliveryStatus;
  eventType?: string;
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_type: WebhookDeliveryType;
  status: WebhookDeliveryStatus;
  next_attempt_at: Date | null;
  created_at: Date;
}

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  at: Date;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  error: string | null;
}

/** The channel the delivery worker listens on; one per schema. */
export function deliveriesChannel(schema: string): string {
  return `webhook_deliveries_${schema}`;
}

export class WebhookDeliveryRepository {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Creates the deliveries that do not exist yet: a fact read again (a replay, a relay's repeat) finds
   * its deliveries already there, so nothing is sent twice. Wakes the workers when the transaction commits.
   */
  async createAll(all: readonly NewDelivery[]): Promise<number> {
    // A fact the relay published twice can come twice in one chunk: its deliveries are made once.
    const deliveries = [...new Map(all.map((delivery) => [delivery.id, delivery])).values()];
    if (deliveries.length === 0) return 0;
    // Arrays rather than a VALUES list: any number of rows fits in the statement's 9 parameters.
    const inserted: Array<{ id: string }> = await this.manager.query(
      `INSERT INTO webhook_deliveries
         (id, endpoint_id, workspace_id, event_type, body, counts_toward_switch_off, status, next_attempt_at,
          created_at, updated_at, subject, fact_offset)
       SELECT u.id, u.endpoint_id, u.workspace_id, u.event_type, u.body, u.counts, 'pending', u.at, u.at, u.at,
              u.subject, u.fact_offset
         FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::text[], $5::text[], $6::boolean[], $7::timestamptz[],
                     $8::text[], $9::bigint[])
              AS u(id, endpoint_id, workspace_id, event_type, body, counts, at, subject, fact_offset)
       ON CONFLICT (id) DO NOTHING
       RETURNING id`,
      [
        deliveries.map((d) => d.id),
        deliveries.map((d) => d.endpointId),
        deliveries.map((d) => d.workspaceId),
        deliveries.map((d) => d.eventType),
        deliveries.map((d) => d.body),
        deliveries.map((d) => d.countsTowardSwitchOff),
        deliveries.map((d) => d.createdAt),
        deliveries.map((d) => d.ordered?.subject ?? null),
        deliveries.map((d) => d.ordered?.factOffset ?? null),
      ],
    );
    if (inserted.length > 0) await this.wakeWorkers();
    return inserted.length;
  }

  /** Delivered to the listening workers when the surrounding transaction commits. */
  async wakeWorkers(): Promise<void> {
    await this.manager.query(`SELECT pg_notify('webhook_deliveries_' || current_schema(), '')`);
  }

  async exists(id: string): Promise<boolean> {
    const rows: unknown[] = await this.manager.query('SELECT 1 FROM webhook_deliveries WHERE id = $1', [id]);
    return rows.length > 0;
  }

  /**
   * Sends the same envelope again, a fresh round of seven attempts due at `at`. A lease in hand is
   * dropped: the attempt in flight still records its answer, but no longer decides the delivery's state.
   */
  async redeliver(endpointId: string, id: string, at: Date): Promise<boolean> {
    const rows = await rowsOf<{ id: string }>(
      this.manager,
      `UPDATE webhook_deliveries
          SET status = 'pending', round_start = attempt_count, attempt_open = false,
              next_attempt_at = $3, leased_until = NULL, lease_token = NULL, updated_at = $3
        WHERE id = $1 AND endpoint_id = $2
        RETURNING id`,
      [id, endpointId, at],
    );
    if (rows.length > 0) await this.wakeWorkers();
    return rows.length > 0;
  }

  async findOne(endpointId: string, id: string): Promise<WebhookDeliveryResource | null> {
    if (!UUID_PATTERN.test(id)) return null;
    const rows: DeliveryRow[] = await this.manager.query(
      `SELECT id, endpoint_id, event_type, status, next_attempt_at, created_at
         FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2`,
      [id, endpointId],
    );
    const [resource] = await this.withAttempts(rows);
    return resource ?? null;
  }

  /** Newest first. */
  async list(
    endpointId: string,
    filters: DeliveryFilters,
    window: SqlWindow,
  ): Promise<{ rows: WebhookDeliveryResource[]; total: number }> {
    const conditions = ['endpoint_id = $1'];
    const params: unknown[] = [endpointId];
    if (filters.status !== undefined) {
      params.push(filters.status);
      conditions.push(`status = $${params.length}`);
    }
    if (filters.eventType !== undefined) {
      params.push(filters.eventType);
      conditions.push(`event_type = $${params.length}`);
    }
    const where = conditions.join(' AND ');
    const [{ total }]: Array<{ total: number }> = await this.manager.query(
      `SELECT count(*)::int AS total FROM webhook_deliveries WHERE ${where}`,
      params,
    );
    const rows: DeliveryRow[] = await this.manager.query(
      `SELECT id, endpoint_id, event_type, status, next_attempt_at, created_at
         FROM webhook_deliveries WHERE ${where}
        ORDER BY created_at DESC, id DESC
        OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
      [...params, window.offset, window.limit],
    );
    return { rows: await this.withAttempts(rows), total };
  }

  private async withAttempts(rows: DeliveryRow[]): Promise<WebhookDeliveryResource[]> {
    if (rows.length === 0) return [];
    const attempts: AttemptRow[] = await this.manager.query(
      `SELECT delivery_id, attempt, at, response_status, response_body, duration_ms, error
         FROM webhook_attempts WHERE delivery_id = ANY ($1::uuid[]) ORDER BY delivery_id, attempt`,
      [rows.map((row) => row.id)],
    );
    const byDelivery = new Map<string, WebhookAttemptResource[]>();
    for (const attempt of attempts) {
      const list = byDelivery.get(attempt.delivery_id) ?? [];
      list.push({
        attempt: attempt.attempt,
        at: new Date(attempt.at).toISOString(),
        response_status: attempt.response_status,
        response_body: attempt.response_body,
        duration_ms: attempt.duration_ms,
        error: attempt.error,
      });
      byDelivery.set(attempt.delivery_id, list);
    }
    return rows.map((row) => ({
      id: row.id,
      endpoint_id: row.endpoint_id,
      event_type: row.event_type,
      status: row.status,
      attempts: byDelivery.get(row.id) ?? [],
      next_attempt_at:
        row.status === 'pending' && row.next_attempt_at ? new Date(row.next_attempt_at).toISOString() : null,
      created_at: new Date(row.created_at).toISOString(),
    }));
  }
}
