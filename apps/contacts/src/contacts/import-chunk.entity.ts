import { idColumn } from '@cms/persistence';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A chunk of an import job that was decided: the same chunk again (a record the segments service's
 * relay published twice, or appended again after a crash) decides nothing and publishes nothing.
 */
@Entity({ name: 'import_chunks' })
export class ImportChunkEntity {
  @PrimaryColumn(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @PrimaryColumn(idColumn({ name: 'job_id' }))
  jobId!: number;

  /** 0-based, as the request numbers it. */
  @PrimaryColumn({ type: 'integer' })
  chunk!: number;

  /** The rows the chunk held. */
  @Column({ type: 'integer' })
  rows!: number;

  /** The time of the request record that decided it. */
  @Column({ name: 'decided_at', type: 'timestamptz' })
  decidedAt!: Date;
}
