import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** What a workflow does, as a version holds it: runs finish on the version they started with. */
export abstract class WorkflowDefinitionColumns {
  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'jsonb' })
  trigger!: Record<string, unknown>;

  @Column({ type: 'jsonb' })
  steps!: Array<Record<string, unknown>>;

  @Column({ type: 'jsonb', nullable: true })
  goal!: Record<string, unknown> | null;

  @Column({ name: 're_entry', type: 'text' })
  reEntry!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/** A workflow (extensions §12): the projection of the requests in the log, so a rebuild makes the same rows. */
@Entity({ name: 'workflows' })
@Index('workflows_workspace_created', ['workspaceId', 'createdAt', 'id'])
export class WorkflowEntity extends WorkflowDefinitionColumns {
  /** Minted by the gateway. */
  @PrimaryColumn(idColumn())
  id!: number;

  @Column({ type: 'boolean' })
  enabled!: boolean;

  /** 1 at creation, one more for every change of trigger, steps, goal or re_entry. */
  @Column({ type: 'integer' })
  version!: number;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** Every version of a workflow, kept after the workflow is deleted: its runs still read theirs. */
@Entity({ name: 'workflow_versions' })
export class WorkflowVersionEntity extends WorkflowDefinitionColumns {
  @PrimaryColumn(idColumn({ name: 'workflow_id' }))
  workflowId!: number;

  @PrimaryColumn({ type: 'integer' })
  version!: number;
}
