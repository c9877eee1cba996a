import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity({ name: 'contact_tags' })
@Index('contact_tags_tag', ['tagId'])
export class ContactTagEntity {
  @PrimaryColumn(idColumn({ name: 'contact_id' }))
  contactId!: number;

  @PrimaryColumn(idColumn({ name: 'tag_id' }))
  tagId!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ name: 'attached_at', type: 'timestamptz' })
  attachedAt!: Date;
}
