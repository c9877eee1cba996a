import { randomUUID } from 'node:crypto';

import {
  createEnvelope,
  deterministicId,
  WEBHOOK_REQUEST_TYPES,
  type WebhookDeliveryType,
  type WebhookEndpointSwitchOffRequestedV1,
} from '@cms/contracts';
import { appendToOutbox, envelopeRecord } from '@cms/kafka';
import { idFromDatabase } from '@cms/persistence';
import type { DataSource, EntityManager } from 'typeorm';

import { SOURCE } from '../decisions/decision';
import {
  countsNeeded,
  switchOffVerdict,
  type SettledDelivery,
} from '../endpoints/switch-off-endpoint/switch-off-rule';
import { rowsOf } from '../infrastructure/returning';
import { MicroBatch } from './micro-batch';
import { nextAttempt } from './retry-schedule';
import type { AttemptResult } from './webhook.sender';

/** What an attempt row says until its answer is recorded; it stays if the worker dies meanwhile. */
export const INTERRUPTED_ATTEMPT =
  'interrupted: the dispatcher stopped before the answer was recorded; the attempt counts';

/** A delivery this worker holds the lease of, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  workspaceId: number;
  eventType: WebhookDeliveryType;
  body: string;
  countsTowardSwitchOff: boolean;
  attemptCount: number;
  roundStart: number;
  /** Its last attempt was counted but never finished: the worker that made it died. */
  attemptOpen: boolean;
  leaseToken: string;
  url: string;
  secretSealed: string;
  /** The secret before the last roll, while it still signs. */
  previousSecretSealed: string | null;
}

export interface ClaimLimits {
  /** Deliveries to claim at most. */
  limit: number;
  /** Deliveries in flight to one endpoint at most, counting those other workers hold. */
  perEndpoint: number;
  leaseMs: number;
  /** Endpoints whose breaker is open here. */
  skipEndpoints: string[];
}

export interface FinishedDelivery {
  status: 'pending' | 'succeeded' | 'failed';
  /** Set when this failure made 25 in a row and asked for the endpoint's switch-off. */
  switchedOff?: { consecutiveFailures: number };
}

interface Finish {
  delivery: ClaimedDelivery;
  attempt: number;
  result: AttemptResult | undefined;
}

interface ClaimRow {
  id: string;
  endpoint_id: string;
  workspace_id: string;
  event_type: WebhookDeliveryType;
  body: string;
  counts_toward_switch_off: boolean;
  attempt_count: number;
  round_start: number;
  attempt_open: boolean;
  lease_token: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
}

/**
 * The delivery table as a durable job queue (DESIGN §4, §5). Claims take due rows with FOR UPDATE SKIP
 * LOCKED and lease them; each attempt is counted in its own transaction before the request goes out,
 * and its answer is recorded, with the delivery's next state, in another. A worker that dies leaves a
 * lease that runs out and an attempt that counts: the next worker records it as interrupted and goes
 * on with the schedule, always under the same delivery id. A delivery with a subject is not claimed
 * while an earlier one of its subject is pending for its endpoint (in flight or waiting for a retry):
 * the events of one message reach an endpoint in order.
 */
export class DeliveryQueueRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly options: { retryDelaysSeconds: readonly number[]; requestsTopic: string },
  ) {}

  /**
   * When the earliest delivery that `claim` would take but for its time becomes claimable (ms since the
   * epoch): its next attempt, or the end of its lease. Deliveries behind an earlier one of their subject,
   * of a switched-off endpoint, of one whose breaker is open here, or of one with no free slot are left
   * out: what frees them wakes the worker (the earlier delivery's own time, a slot freed here, a breaker
   * that closes), or the safety poll when another replica frees a slot. Undefined: none waits.
   */
  async nextDueAt(limits: Pick<ClaimLimits, 'perEndpoint' | 'skipEndpoints'>): Promise<number | undefined> {
    const rows: Array<{ at: number | null }> = await this.dataSource.query(
      `SELECT (extract(epoch FROM min(greatest(d.next_attempt_at, coalesce(d.leased_until, d.next_attempt_at))))
               * 1000)::float8 AS at
         FROM webhook_deliveries d
         JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.status = 'pending' AND e.enabled AND NOT (e.id = ANY ($2::uuid[]))
          AND (SELECT count(*) FROM webhook_deliveries busy
                WHERE busy.endpoint_id = e.id AND busy.status = 'pending' AND busy.leased_until > now()) < $1
          AND (d.subject IS NULL OR NOT EXISTS (
                SELECT 1 FROM webhook_deliveries earlier
                 WHERE earlier.endpoint_id = d.endpoint_id AND earlier.subject IS NOT NULL
                   AND earlier.subject = d.subject AND earlier.status = 'pending'
                   AND earlier.fact_offset < d.fact_offset))`,
      [limits.perEndpoint, limits.skipEndpoints],
    );
    return rows[0]?.at ?? undefined;
  }

  async claim(limits: ClaimLimits): Promise<ClaimedDelivery[]> {
    if (limits.limit <= 0) return [];
    const token = randomUUID();
    return this.dataSource.transaction(async (manager) => {
      // One claimer at a time per schema, so the per-endpoint count below cannot be raced past.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':webhook-claim'))`);
      const rows = await rowsOf<ClaimRow>(
        manager,
        `WITH ready AS (
           SELECT e.id AS endpoint_id,
                  $2::int - (SELECT count(*) FROM webhook_deliveries busy
                              WHERE busy.endpoint_id = e.id AND busy.status = 'pending'
                                AND busy.leased_until > now())::int AS free
             FROM webhook_endpoints e
            WHERE e.enabled AND NOT (e.id = ANY ($3::uuid[]))
              AND EXISTS (SELECT 1 FROM webhook_deliveries due
                           WHERE due.endpoint_id = e.id AND due.status = 'pending' AND due.next_attempt_at <= now())
         ),
         picked AS (
           SELECT d.id, d.next_attempt_at
             FROM ready r
             CROSS JOIN LATERAL (
               SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
                WHERE d.endpoint_id = r.endpoint_id AND d.status = 'pending' AND d.next_attempt_at <= now()
                  AND (d.leased_until IS NULL OR d.leased_until <= now())
                  AND (d.subject IS NULL OR NOT EXISTS (
                        SELECT 1 FROM webhook_deliveries earlier
                         WHERE earlier.endpoint_id = d.endpoint_id AND earlier.subject IS NOT NULL
                           AND earlier.subject = d.subject AND earlier.status = 'pending'
                           AND earlier.fact_offset < d.fact_offset))
                ORDER BY d.next_attempt_at, d.id
                LIMIT GREATEST(r.free, 0)
             ) d
            ORDER BY d.next_attempt_at, d.id
            LIMIT $1
         ),
         locked AS (
           SELECT d.id FROM webhook_deliveries d WHERE d.id IN (SELECT id FROM picked)
              FOR UPDATE SKIP LOCKED
         )
         UPDATE webhook_deliveries d
            SET leased_until = now() + $4::int * interval '1 millisecond', lease_token = $5
           FROM locked l, webhook_endpoints e
          WHERE d.id = l.id AND e.id = d.endpoint_id
         RETURNING d.id, d.endpoint_id, d.workspace_id, d.event_type, d.body, d.counts_toward_switch_off,
                   d.attempt_count, d.round_start, d.attempt_open, d.lease_token, e.url, e.secret_sealed,
                   CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret_sealed END
                     AS previous_secret_sealed`,
        [limits.limit, limits.perEndpoint, limits.skipEndpoints, Math.ceil(limits.leaseMs), token],
      );
      return rows.map((row) => ({
        id: row.id,
        endpointId: row.endpoint_id,
        workspaceId: idFromDatabase(row.workspace_id),
        eventType: row.event_type,
        body: row.body,
        countsTowardSwitchOff: row.counts_toward_switch_off,
        attemptCount: row.attempt_count,
        roundStart: row.round_start,
        attemptOpen: row.attempt_open,
        leaseToken: row.lease_token,
        url: row.url,
        secretSealed: row.secret_sealed,
        previousSecretSealed: row.previous_secret_sealed,
      }));
    });
  }

  /**
   * Counts the next attempt and writes its row, committed before the request goes out. Returns its
   * number, or undefined when the lease was lost (redelivered, deleted, or taken over). The attempts
   * started within one turn of the event loop are written by one statement.
   */
  startAttempt(delivery: ClaimedDelivery): Promise<number | undefined> {
    return this.starts.submit(delivery);
  }

  /**
   * Records the answer of `attempt` and moves the delivery on: succeeded; pending until the next
   * attempt of the schedule; or failed after the last one, which may switch the endpoint off. With no
   * result, the attempt was interrupted and counts as failed as it stands. The answers recorded within
   * one turn of the event loop share a transaction.
   */
  finishAttempt(
    delivery: ClaimedDelivery,
    attempt: number,
    result: AttemptResult | undefined,
  ): Promise<FinishedDelivery | undefined> {
    return this.finishes.submit({ delivery, attempt, result });
  }

  private readonly starts = new MicroBatch<ClaimedDelivery, number | undefined>(
    (deliveries) => this.startAll(deliveries),
    async (delivery) => (await this.startAll([delivery]))[0],
  );

  private readonly finishes = new MicroBatch<Finish, FinishedDelivery | undefined>(
    (finishes) => this.dataSource.transaction((manager) => this.finishAll(manager, finishes)),
    (finish) => this.dataSource.transaction(async (manager) => (await this.finishAll(manager, [finish]))[0]),
  );

  /** One statement: counts each delivery's next attempt, if its lease still holds, and opens its row. */
  private async startAll(deliveries: ClaimedDelivery[]): Promise<Array<number | undefined>> {
    const rows = await rowsOf<{ id: string; attempt_count: number }>(
      this.dataSource,
      `WITH started AS (
         UPDATE webhook_deliveries d
            SET attempt_count = d.attempt_count + 1, attempt_open = true, updated_at = now()
           FROM unnest($1::uuid[], $2::uuid[]) AS u(id, token)
          WHERE d.id = u.id AND d.lease_token = u.token AND d.status = 'pending'
         RETURNING d.id, d.attempt_count
       ),
       opened AS (
         INSERT INTO webhook_attempts (delivery_id, attempt, at, error)
         SELECT id, attempt_count, now(), $3 FROM started
       )
       SELECT id::text AS id, attempt_count FROM started`,
      [deliveries.map((d) => d.id), deliveries.map((d) => d.leaseToken), INTERRUPTED_ATTEMPT],
    );
    const started = new Map(rows.map((row) => [row.id, row.attempt_count]));
    return deliveries.map((delivery) => started.get(delivery.id));
  }

  private async finishAll(
    manager: EntityManager,
    finishes: Finish[],
  ): Promise<Array<FinishedDelivery | undefined>> {
    const answered = finishes.filter((finish) => finish.result !== undefined);
    if (answered.length > 0) {
      await manager.query(
        `UPDATE webhook_attempts a
            SET response_status = u.status, response_body = u.body, duration_ms = u.ms, error = u.error
           FROM unnest($1::uuid[], $2::int[], $3::int[], $4::text[], $5::int[], $6::text[])
                AS u(id, attempt, status, body, ms, error)
          WHERE a.delivery_id = u.id AND a.attempt = u.attempt`,
        [
          answered.map((f) => f.delivery.id),
          answered.map((f) => f.attempt),
          answered.map((f) => f.result!.responseStatus),
          answered.map((f) => f.result!.responseBody),
          answered.map((f) => f.result!.durationMs),
          answered.map((f) => f.result!.error),
        ],
      );
    }
    // Locked in one order, so two replicas' batches never wait for each other.
    const held = await rowsOf<{ id: string; attempt_count: number; round_start: number }>(
      manager,
      `SELECT d.id::text AS id, d.attempt_count, d.round_start FROM webhook_deliveries d
         JOIN unnest($1::uuid[], $2::uuid[]) AS u(id, token) ON d.id = u.id AND d.lease_token = u.token
        WHERE d.status = 'pending'
        ORDER BY d.id
          FOR UPDATE OF d`,
      [finishes.map((f) => f.delivery.id), finishes.map((f) => f.delivery.leaseToken)],
    );
    const holding = new Map(held.map((row) => [row.id, row]));
    const moves: Array<{ id: string; status: FinishedDelivery['status']; delaySeconds: number | null }> = [];
    const outcomes = finishes.map(({ delivery, result }): FinishedDelivery | undefined => {
      const row = holding.get(delivery.id);
      // Redelivered, deleted or taken over meanwhile: the answer is on record, the state is not ours.
      if (!row) return undefined;
      if (result?.ok) {
        moves.push({ id: delivery.id, status: 'succeeded', delaySeconds: null });
        return { status: 'succeeded' };
      }
      const inRound = row.attempt_count - row.round_start;
      const next = nextAttempt(inRound, this.options.retryDelaysSeconds, result?.retryAfterSeconds);
      if (next.kind === 'retry') {
        moves.push({ id: delivery.id, status: 'pending', delaySeconds: next.delaySeconds });
        return { status: 'pending' };
      }
      moves.push({ id: delivery.id, status: 'failed', delaySeconds: null });
      return { status: 'failed' };
    });
    if (moves.length > 0) {
      await manager.query(
        `UPDATE webhook_deliveries d
            SET status = u.status, attempt_open = false,
                next_attempt_at = now() + u.delay * interval '1 second',
                leased_until = NULL, lease_token = NULL, updated_at = now()
           FROM unnest($1::uuid[], $2::text[], $3::float8[]) AS u(id, status, delay)
          WHERE d.id = u.id`,
        [moves.map((m) => m.id), moves.map((m) => m.status), moves.map((m) => m.delaySeconds)],
      );
    }
    await this.countTowardSwitchOff(manager, finishes, outcomes);
    return outcomes;
  }

  /**
   * Applies the switch-off rule to the deliveries just settled: the counts it reads, locked for this
   * transaction, moved as it says, and a switch-off request for each failure that asks for one.
   */
  private async countTowardSwitchOff(
    manager: EntityManager,
    finishes: Finish[],
    outcomes: Array<FinishedDelivery | undefined>,
  ): Promise<void> {
    const settled = finishes.map(({ delivery }, index): SettledDelivery | undefined => {
      const outcome = outcomes[index];
      return (
        outcome && {
          endpointId: delivery.endpointId,
          countsTowardSwitchOff: delivery.countsTowardSwitchOff,
          status: outcome.status,
        }
      );
    });
    const verdict = switchOffVerdict(await this.lockFailureCounts(manager, countsNeeded(settled)), settled);
    const counts = [...verdict.failuresInARow];
    const startedOver = counts.filter(([, count]) => count === 0).map(([endpointId]) => endpointId);
    const failing = counts.filter(([, count]) => count > 0);
    if (startedOver.length > 0) {
      await manager.query('DELETE FROM webhook_endpoint_failures WHERE endpoint_id = ANY ($1::uuid[])', [
        startedOver,
      ]);
    }
    if (failing.length > 0) {
      await manager.query(
        `UPDATE webhook_endpoint_failures f SET consecutive_failures = u.count
           FROM unnest($1::uuid[], $2::int[]) AS u(id, count) WHERE f.endpoint_id = u.id`,
        [failing.map(([endpointId]) => endpointId), failing.map(([, count]) => count)],
      );
    }
    if (verdict.switchOffs.size === 0) return;
    await this.requestSwitchOffs(
      manager,
      [...verdict.switchOffs].map(([index, consecutiveFailures]) => ({
        ...finishes[index]!,
        consecutiveFailures,
      })),
    );
    for (const [index, consecutiveFailures] of verdict.switchOffs)
      outcomes[index] = { status: 'failed', switchedOff: { consecutiveFailures } };
  }

  /**
   * The endpoints' counts of failures in a row, their rows locked (made at 0 where there is none) so
   * that replicas settling deliveries of the same endpoint count one after the other. Locked in one
   * order, so two batches never deadlock.
   */
  private async lockFailureCounts(
    manager: EntityManager,
    endpointIds: string[],
  ): Promise<Map<string, number>> {
    if (endpointIds.length === 0) return new Map();
    const rows = await rowsOf<{ endpoint_id: string; consecutive_failures: number }>(
      manager,
      `INSERT INTO webhook_endpoint_failures AS f (endpoint_id, consecutive_failures)
       SELECT id, 0 FROM unnest($1::uuid[]) AS u(id) ORDER BY id
       ON CONFLICT (endpoint_id) DO UPDATE SET consecutive_failures = f.consecutive_failures
       RETURNING endpoint_id, consecutive_failures`,
      [endpointIds],
    );
    return new Map(rows.map((row) => [row.endpoint_id, row.consecutive_failures]));
  }

  /** Hands the delivery back without spending an attempt; it is due again in `delayMs`. */
  async postpone(delivery: ClaimedDelivery, delayMs: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_deliveries
          SET next_attempt_at = now() + $3::float8 * interval '1 millisecond', leased_until = NULL, lease_token = NULL
        WHERE id = $1 AND lease_token = $2`,
      [delivery.id, delivery.leaseToken, delayMs],
    );
  }

  /**
   * Asks for the switch-offs: request records on the requests topic (through the outbox, in this
   * transaction), keyed like the customer's requests about the endpoint, so the requests consumer
   * decides each in order with them and the projection stays a function of the log. Each id comes from
   * the delivery and the attempt.
   */
  private async requestSwitchOffs(
    manager: EntityManager,
    switchOffs: Array<Finish & { consecutiveFailures: number }>,
  ): Promise<void> {
    const [{ now }] = await rowsOf<{ now: Date }>(manager, 'SELECT now() AS now');
    const type = WEBHOOK_REQUEST_TYPES.endpointSwitchOff;
    await appendToOutbox(
      manager,
      switchOffs.map(({ delivery, attempt, consecutiveFailures }) => {
        const data: WebhookEndpointSwitchOffRequestedV1 = {
          endpoint_id: delivery.endpointId,
          delivery_id: delivery.id,
          attempt,
          consecutive_failures: consecutiveFailures,
        };
        return envelopeRecord(
          this.options.requestsTopic,
          createEnvelope({
            id: deterministicId(delivery.id, attempt, type),
            type,
            source: SOURCE,
            workspaceid: String(delivery.workspaceId),
            subject: delivery.endpointId,
            time: new Date(now).toISOString(),
            data,
          }),
        );
      }),
    );
  }
}
