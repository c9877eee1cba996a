import type { ChannelType } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A message template (Liquid), its name unique per workspace and channel type. */
@Entity({ name: 'templates' })
@Index('templates_workspace_channel_name', ['workspaceId', 'channel', 'name'], { unique: true })
export class TemplateEntity {
  /** Minted by the gateway. */
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  channel!: ChannelType;

  @Column({ type: 'text' })
  language!: string;

  @Column({ type: 'text', nullable: true })
  body!: string | null;

  @Column({ type: 'text', nullable: true })
  subject!: string | null;

  @Column({ type: 'text', nullable: true })
  html!: string | null;

  @Column({ name: 'provider_template', type: 'jsonb', nullable: true })
  providerTemplate!: { name: string; language: string; parameters: string[] } | null;

  @Column({ name: 'track_links', type: 'boolean' })
  trackLinks!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
