import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A tracked link of a message (extensions §10): made when the message's attempt is recorded, counted
 * by its clicks. The token itself is never stored, only its hash: the table cannot make a working link.
 */
@Entity({ name: 'message_links' })
@Index('message_links_token', ['tokenHash'], { unique: true })
export class MessageLinkEntity {
  @PrimaryColumn({ name: 'message_id', type: 'text' })
  messageId!: string;

  @PrimaryColumn({ name: 'link_index', type: 'integer' })
  linkIndex!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  /** sha256 (hex) of the token in `/l/<token>`. */
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  /** The URL the rendered body had: where `/l/<token>` redirects. */
  @Column({ type: 'text' })
  url!: string;

  /** Human clicks. */
  @Column({ type: 'integer' })
  clicks!: number;

  /** Clicks of scanners and prefetchers, and those within 2 s of the send. */
  @Column({ name: 'bot_clicks', type: 'integer' })
  botClicks!: number;

  /** The first human click: when link.clicked was sent. */
  @Column({ name: 'first_clicked_at', type: 'timestamptz', nullable: true })
  firstClickedAt!: Date | null;

  @Column({ name: 'last_clicked_at', type: 'timestamptz', nullable: true })
  lastClickedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
