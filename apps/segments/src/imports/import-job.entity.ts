import type { ImportJobStatus, ImportRowDecisionV1, ImportRowErrorV1 } from '@cms/contracts';
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

  /**
   * The blocks of contact ids reserved for the rows: up to 10,000 of them, read only by the import
   * worker, a few at a time (every job read holding them took a tenth of the service's time).
   */
  @Column({ ...ID_ARRAY, name: 'id_blocks', select: false })
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

  /** The time of the record that decided it. */
  @Column({ type: 'timestamptz' })
  at!: Date;

  /**
   * The chunk's decided rows while its job is not known yet: a rebuild reads the contacts topic and
   * the requests topic side by side, so a chunk's decision may come before the job's request. The
   * job's decision applies them and empties this; live it is always null.
   */
  @Column({ type: 'jsonb', nullable: true })
  pending!: ImportRowDecisionV1[] | null;

  /** Why the contacts service refused the chunk (contact.import-rows.refused), or null: it was decided. */
  @Column({ type: 'text', nullable: true })
  refused!: string | null;
}

/**
 * The import worker's progress through a job's chunks: not derived from the log (a rebuild keeps it,
 * so no chunk is sent twice), one row per job for good (a job found without one is one to start).
 * `chunks` is where sending ends: the job's chunk count, or where it stopped when the upload went.
 */
@Entity({ name: 'import_emissions' })
export class ImportEmissionEntity {
  @PrimaryColumn(idColumn({ name: 'job_id' }))
  jobId!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  /** The next chunk to send (0-based). */
  @Column({ name: 'next_chunk', type: 'integer' })
  nextChunk!: number;

  @Column({ type: 'integer' })
  chunks!: number;

  /** Unused by this worker, whose transaction is its lease (it does no I/O while it holds a row). */
  @Column({ name: 'leased_until', type: 'timestamptz', nullable: true })
  leasedUntil!: Date | null;
}
