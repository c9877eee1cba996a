import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity({ name: 'tags' })
@Index('tags_workspace_name', ['workspaceId', 'name'], { unique: true })
export class TagEntity {
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  color!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
