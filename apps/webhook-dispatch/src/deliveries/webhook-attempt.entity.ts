import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/** One POST of a delivery, written before it goes out and completed with the answer. */
@Entity({ name: 'webhook_attempts' })
export class WebhookAttemptEntity {
  @PrimaryColumn({ name: 'delivery_id', type: 'uuid' })
  deliveryId!: string;

  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'FK_webhook_attempts_delivery' })
  delivery?: WebhookDeliveryEntity;

  @PrimaryColumn({ type: 'integer' })
  attempt!: number;

  @Column({ type: 'timestamptz' })
  at!: Date;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus!: number | null;

  /** Cut to 16 KiB. */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody!: string | null;

  @Column({ name: 'duration_ms', type: 'integer', nullable: true })
  durationMs!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;
}
