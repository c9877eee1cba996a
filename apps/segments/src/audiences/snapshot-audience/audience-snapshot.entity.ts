import { idColumn } from '@cms/persistence';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A snapshot taken (extensions §13): one row per snapshot id and workspace, made from the request
 * record alone, so that a record delivered again (a producer's retry appends it twice) takes nothing
 * twice, and a rebuild makes the same rows without evaluating anything.
 */
@Entity({ name: 'audience_snapshots' })
export class AudienceSnapshotEntity {
  @PrimaryColumn(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  /** The caller's id (a notification send's). */
  @PrimaryColumn(idColumn({ name: 'snapshot_id' }))
  snapshotId!: number;

  @Column(idColumn({ name: 'audience_id' }))
  audienceId!: number;

  /** The time of the record that took it: the snapshot's "now". */
  @Column({ type: 'timestamptz' })
  at!: Date;
}
