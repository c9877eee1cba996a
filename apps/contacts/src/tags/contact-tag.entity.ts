import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity({ name: 'contact_tags' })
@Index('contact_tags_tag', ['tagId'])
export class ContactTagEntity {
  @PrimaryColumn({ name: 'contact_id', type: 'integer' })
  contactId!: number;

  @PrimaryColumn({ name: 'tag_id', type: 'integer' })
  tagId!: number;

  @Column({ name: 'workspace_id', type: 'integer' })
  workspaceId!: number;

  @Column({ name: 'attached_at', type: 'timestamptz' })
  attachedAt!: Date;
}
