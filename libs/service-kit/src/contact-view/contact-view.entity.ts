import type { ContactChannels, MarketingConsent } from '@cms/contracts';
import { idArrayColumn, idColumn } from '@cms/persistence';
import { Column, PrimaryColumn, type ColumnOptions } from 'typeorm';

/** What every service's view of a contact keeps of a contact snapshot. */
export interface ContactViewRow {
  id: number;
  workspaceId: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  externalId: string | null;
  data: Record<string, unknown>;
  marketingConsent: MarketingConsent;
  channels: ContactChannels;
  updatedAt: Date;
}

/** The fields of a snapshot a service keeps only when it reads them. */
export interface ContactViewOptionalFields {
  source: string | null;
  tagIds: number[];
  createdAt: Date;
}

export type ContactViewOptionalField = keyof ContactViewOptionalFields;

const OPTIONAL_COLUMNS: Record<ContactViewOptionalField, ColumnOptions> = {
  source: { type: 'text', nullable: true },
  tagIds: idArrayColumn({ name: 'tag_ids' }),
  createdAt: { name: 'created_at', type: 'timestamptz' },
};

/** The base of a service's contact entity: the columns it keeps, and which optional ones they are. */
export interface ContactViewBase<K extends ContactViewOptionalField> {
  new (): ContactViewRow & Pick<ContactViewOptionalFields, K>;
  readonly keeps: readonly K[];
}

/** A service's contact entity, as the view writes it: a row of its own table. */
export interface ContactViewEntity<E extends ContactViewRow> {
  new (): E;
  readonly keeps: readonly ContactViewOptionalField[];
}

/**
 * The columns of a service's view of contacts, for its entity to extend: the snapshot fields every
 * view keeps, and the optional ones it names. The entity gives the table its name and indexes, and
 * adds the service's own columns (filled by its hooks, see ContactViewHooks).
 *
 * ```ts
 * @Entity({ name: 'contacts' })
 * export class ContactEntity extends contactViewColumns('tagIds') {}
 * ```
 */
export function contactViewColumns<K extends ContactViewOptionalField = never>(
  ...keeps: K[]
): ContactViewBase<K> {
  class ContactViewColumns {
    static readonly keeps: readonly K[] = keeps;

    @PrimaryColumn(idColumn())
    id!: number;

    @Column(idColumn({ name: 'workspace_id' }))
    workspaceId!: number;

    @Column({ type: 'text', nullable: true })
    name!: string | null;

    @Column({ type: 'text', nullable: true })
    phone!: string | null;

    @Column({ type: 'text', nullable: true })
    email!: string | null;

    @Column({ name: 'external_id', type: 'text', nullable: true })
    externalId!: string | null;

    @Column({ type: 'jsonb' })
    data!: Record<string, unknown>;

    @Column({ name: 'marketing_consent', type: 'jsonb' })
    marketingConsent!: MarketingConsent;

    @Column({ type: 'jsonb' })
    channels!: ContactChannels;

    @Column({ name: 'updated_at', type: 'timestamptz' })
    updatedAt!: Date;
  }
  for (const field of keeps) Column(OPTIONAL_COLUMNS[field])(ContactViewColumns.prototype, field);
  return ContactViewColumns as unknown as ContactViewBase<K>;
}
