import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A channel: the projection of the requests in the log, so a rebuild makes the same rows. */
@Entity({ name: 'channels' })
@Index('channels_workspace_name', ['workspaceId', 'name'], { unique: true })
export class ChannelEntity {
  /** Minted by the gateway. */
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
