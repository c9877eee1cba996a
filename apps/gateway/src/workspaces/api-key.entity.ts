import type { Permission } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn(idColumn())
  id!: number;

  @Index('api_keys_workspace')
  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', array: true })
  permissions!: Permission[];

  @Index('api_keys_key_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'text' })
  keyHash!: string;

  @Column({ name: 'key_prefix', type: 'text' })
  keyPrefix!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}
