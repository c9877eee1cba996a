import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Stored contacts per workspace, kept with every creation so the plan limit costs one row read. */
@Entity({ name: 'workspace_usage' })
export class WorkspaceUsageEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'integer' })
  workspaceId!: number;

  @Column({ type: 'integer' })
  contacts!: number;
}
