import type { ImportJobStatus, ImportRowErrorV1 } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { ID_ARRAY } from '../audiences/audience.entity';

/** The columns of the upload that identify a row. */
export interface ImportMapping {
  phone: string | null;
  email: string | null;
  name: string | null;
}

/** An import job (extensions §11): a projection of its process request and of the chunks decided. */
@Entity({ name: 'import_jobs' })
@Index('import_jobs_workspace', ['workspaceId', 'id'])
export class ImportJobEntity {
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'audience_id' }))
  audienceId!: number;

  @Column({ type: 'text' })
  path!: string;

  @Column({ type: 'jsonb' })
  mapping!: ImportMapping;

  @Column({ name: 'create_new_entities', type: 'boolean' })
  createNewEntities!: boolean;

  @Column(idColumn({ name: 'contact_limit' }))
  contactLimit!: number;

  @Column({ ...ID_ARRAY, name: 'id_blocks' })
  idBlocks!: number[];

  @Column({ type: 'text' })
  status!: ImportJobStatus;

  @Column({ name: 'rows_total', type: 'integer' })
  rowsTotal!: number;

  @Column({ name: 'rows_processed', type: 'integer' })
  rowsProcessed!: number;

  @Column({ name: 'contacts_created', type: 'integer' })
  contactsCreated!: number;

  @Column({ name: 'contacts_matched', type: 'integer' })
  contactsMatched!: number;

  @Column({ name: 'rows_skipped', type: 'integer' })
  rowsSkipped!: number;

  /** The first MAX_IMPORT_JOB_ERRORS skipped rows, in row order. */
  @Column({ type: 'jsonb' })
  errors!: ImportRowErrorV1[];

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}

/** A chunk of a job whose decision was applied: a chunk decided twice counts once. */
@Entity({ name: 'import_job_chunks' })
export class ImportJobChunkEntity {
  @PrimaryColumn(idColumn({ name: 'job_id' }))
  jobId!: number;

  @PrimaryColumn({ type: 'integer' })
  chunk!: number;
}
