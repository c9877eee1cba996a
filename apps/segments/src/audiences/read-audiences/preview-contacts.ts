import { CONSENT_CHANNELS, LINK_CHANNELS, type ContactChannels, type MarketingConsent } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

interface Row {
  id: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  external_id: string | null;
  source: string | null;
  data: Record<string, unknown>;
  marketing_consent: Partial<MarketingConsent>;
  channels: Partial<ContactChannels>;
  tags: Array<{ id: string; name: string; color: string | null }>;
  created_at: Date;
  updated_at: Date;
}

/** The contacts of a preview's sample, as the contacts API shows a contact (extensions §2). */
@Injectable()
export class PreviewContacts {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async contacts(workspaceId: number, ids: readonly number[]): Promise<Record<string, unknown>[]> {
    if (ids.length === 0) return [];
    const rows: Row[] = await this.dataSource.query(
      `SELECT c.id, c.name, c.phone, c.email, c.external_id, c.source, c.data, c.marketing_consent,
              c.channels, c.created_at, c.updated_at,
              COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) ORDER BY t.id)
                          FROM tags t WHERE t.id = ANY(c.tag_ids) AND t.workspace_id = c.workspace_id), '[]') AS tags
         FROM contacts c
        WHERE c.workspace_id = $1 AND c.id = ANY($2::bigint[])
        ORDER BY c.id`,
      [workspaceId, ids],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      name: row.name,
      phone: row.phone,
      email: row.email,
      external_id: row.external_id,
      source: row.source,
      data: row.data,
      marketing_consent: Object.fromEntries(
        CONSENT_CHANNELS.map((channel) => [channel, row.marketing_consent[channel] ?? null]),
      ),
      tags: row.tags.map((tag) => ({ id: Number(tag.id), name: tag.name, color: tag.color })),
      channels: Object.fromEntries(LINK_CHANNELS.map((channel) => [channel, row.channels[channel] ?? null])),
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    }));
  }
}
