import { idColumn } from '@cms/persistence';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Stored contacts per workspace and its plan's limit, kept together so the plan check costs one row read. */
@Entity({ name: 'workspace_usage' })
export class WorkspaceUsageEntity {
  @PrimaryColumn(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'integer' })
  contacts!: number;

  /**
   * The stored-contacts limit of the workspace's latest plan record; null until a plan record carrying
   * one was applied (the request's own `contact_limit` is used then).
   */
  @Column({ name: 'contact_limit', type: 'integer', nullable: true })
  contactLimit!: number | null;
}
