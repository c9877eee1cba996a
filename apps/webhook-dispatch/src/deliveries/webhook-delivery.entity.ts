import type { WebhookDeliveryStatus, WebhookDeliveryType } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One envelope for one endpoint, and the durable job that delivers it (DESIGN §4, §5): the worker claims
 * due rows with FOR UPDATE SKIP LOCKED and a lease, and every attempt is counted before it goes out.
 */
@Entity({ name: 'webhook_deliveries' })
@Index('webhook_deliveries_endpoint', ['endpointId', 'createdAt', 'id'])
// Partial (WHERE status = 'pending'): shapes TypeORM cannot compare, so the migrations own them.
@Index('webhook_deliveries_due', { synchronize: false })
@Index('webhook_deliveries_subject_order', { synchronize: false })
export class WebhookDeliveryEntity {
  /** The envelope id and the Service-Delivery header: derived from the fact and the endpoint. */
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /**
   * No foreign key: the endpoints are the projection a rebuild empties and fills again, the deliveries
   * are jobs it keeps. Deleting an endpoint deletes its deliveries (WebhookEndpointRepository.delete).
   */
  @Column({ name: 'endpoint_id', type: 'uuid' })
  endpointId!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ name: 'event_type', type: 'text' })
  eventType!: WebhookDeliveryType;

  /**
   * What the event is about (a message id) when its events go to an endpoint in order: while a
   * delivery of the same subject with a lower `fact_offset` is pending for the endpoint, this one waits.
   * Null for events that need no order.
   */
  @Column({ type: 'text', nullable: true })
  subject!: string | null;

  /** The offset of the fact in its partition; the facts of one subject share a partition. */
  @Column({ name: 'fact_offset', type: 'bigint', nullable: true })
  factOffset!: string | null;

  /** The envelope, serialised once: every attempt sends these exact bytes. */
  @Column({ type: 'text' })
  body!: string;

  /** False for webhook.test: neither its failure nor its success moves the endpoint's failure count. */
  @Column({ name: 'counts_toward_switch_off', type: 'boolean' })
  countsTowardSwitchOff!: boolean;

  @Column({ type: 'text' })
  status!: WebhookDeliveryStatus;

  /** Attempts started, ever; the attempt numbers of the history. */
  @Column({ name: 'attempt_count', type: 'integer', default: 0 })
  attemptCount!: number;

  /** attempt_count when the current round began (creation, or the last redelivery). */
  @Column({ name: 'round_start', type: 'integer', default: 0 })
  roundStart!: number;

  /** The last attempt was counted but its result is not recorded (in flight, or the worker died). */
  @Column({ name: 'attempt_open', type: 'boolean', default: false })
  attemptOpen!: boolean;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ name: 'leased_until', type: 'timestamptz', nullable: true })
  leasedUntil!: Date | null;

  @Column({ name: 'lease_token', type: 'uuid', nullable: true })
  leaseToken!: string | null;

  /** The time of the fact (or request) the delivery came from: the envelope's created_at. */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
