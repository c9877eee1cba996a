import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity({ name: 'events' })
@Index('events_workspace_received', ['workspaceId', 'receivedAt', 'id'])
@Index('events_workspace_name', ['workspaceId', 'name', 'receivedAt'])
@Index('events_workspace_idempotency_key', ['workspaceId', 'idempotencyKey'], { unique: true })
export class EventEntity {
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column(idColumn({ name: 'contact_id' }))
  contactId!: number;

  @Column({ type: 'jsonb' })
  data!: Record<string, unknown>;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  /** The time of the request record: when the gateway received the event. */
  @Column({ name: 'received_at', type: 'timestamptz' })
  receivedAt!: Date;

  @Column({ name: 'idempotency_key', type: 'text', nullable: true })
  idempotencyKey!: string | null;
}
