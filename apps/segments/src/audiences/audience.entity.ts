import type { AudienceSource } from '@cms/contracts';
import { idArrayColumn, idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

const ID_ARRAY = idArrayColumn();

/** An audience (extensions §11): a projection of the requests in the log. */
@Entity({ name: 'audiences' })
@Index('audiences_workspace_name', ['workspaceId', 'name'], { unique: true })
export class AudienceEntity {
  /** Minted by the gateway. */
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  source!: AudienceSource;

  /** As the client sent it (read again by readFilterCriteria when evaluated). */
  @Column({ name: 'filter_criteria', type: 'jsonb' })
  filterCriteria!: unknown[];

  @Column({ ...ID_ARRAY, name: 'include_contact_ids' })
  includeContactIds!: number[];

  @Column({ ...ID_ARRAY, name: 'exclude_contact_ids' })
  excludeContactIds!: number[];

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** A contact an import put into an audience (extensions §11: "was imported into it"). */
@Entity({ name: 'audience_members' })
export class AudienceMemberEntity {
  @PrimaryColumn(idColumn({ name: 'audience_id' }))
  audienceId!: number;

  @PrimaryColumn(idColumn({ name: 'contact_id' }))
  contactId!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;
}

export { ID_ARRAY };
