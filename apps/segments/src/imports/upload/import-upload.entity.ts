import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A CSV file uploaded for an import (extensions §11), until it expires: its header, what its preview
 * showed, and the number of its data rows. Not derived from the log: a rebuild keeps it.
 */
@Entity({ name: 'import_uploads' })
@Index('import_uploads_expires', ['expiresAt'])
@Index('import_uploads_workspace_expires', ['workspaceId', 'expiresAt'])
export class ImportUploadEntity {
  /** `upl_` and 32 random hex digits: the opaque reference the client processes it by. */
  @PrimaryColumn({ type: 'text' })
  path!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  /** The header row, in file order: non-empty and unique. */
  @Column({ type: 'text', array: true })
  columns!: string[];

  /** `,`, `;` or a tab. */
  @Column({ type: 'text' })
  delimiter!: string;

  /** Data rows, the header not counted. */
  @Column({ name: 'row_count', type: 'integer' })
  rowCount!: number;

  /** The first data rows as objects keyed by column, as the preview answered them. */
  @Column({ name: 'sample_rows', type: 'jsonb' })
  sampleRows!: Array<Record<string, string>>;

  /** The size of the file: what counts towards the workspace's quota while the upload lives. */
  @Column(idColumn({ name: 'bytes', default: 0 }))
  bytes!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}

/** One data row of an upload, its cells in the order of the upload's columns. */
@Entity({ name: 'import_upload_rows' })
export class ImportUploadRowEntity {
  @PrimaryColumn({ type: 'text' })
  path!: string;

  /** 1-based, the header not counted: the `row` an import job's errors name. */
  @PrimaryColumn({ type: 'integer' })
  row!: number;

  @Column({ type: 'text', array: true })
  cells!: string[];
}
