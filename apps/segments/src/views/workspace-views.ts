import { toE164, type ChannelType, type ContactChannels, type MarketingConsent } from '@cms/contracts';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

import { WorkspaceIndex } from '../evaluation/workspace-index';

/** Rows read per statement while a workspace's index is built or brought up to date. */
const PAGE = 20_000;

interface ContactRow {
  id: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  external_id: string | null;
  source: string | null;
  data: Record<string, unknown>;
  marketing_consent: MarketingConsent;
  channels: ContactChannels;
  tag_ids: string[];
  created_at: Date;
  updated_at: Date;
  revision: string;
}

interface Revisions {
  contacts: number;
  suppressions: number;
}

/** One workspace's index, and the revisions of the view it holds. */
interface View {
  index: WorkspaceIndex;
  revisions: Revisions;
  contacts: number;
  lastUsed: number;
}

export interface WorkspaceViewsOptions {
  dataSource: DataSource;
  /** Contacts the cached indexes hold at most together; the least recently used go first. */
  maxContacts: number;
  logger: Logger;
}

/**
 * The in-memory indexes previews and sizes are evaluated on (docs/architecture.md, Segments): one per
 * workspace, built from the view's tables on first use and brought up to date before every use by
 * reading only the rows whose revision moved past the one it holds (one indexed statement when nothing
 * moved). The tables are the truth; an index is a cache any replica rebuilds, so every replica answers
 * within the time the view takes to apply a fact.
 */
export class WorkspaceViews {
  private readonly views = new Map<number, View>();
  /** One refresh per workspace at a time: concurrent callers wait for the same one. */
  private readonly refreshing = new Map<number, Promise<View>>();

  constructor(private readonly options: WorkspaceViewsOptions) {}

  /** The workspace's index, up to date with every change committed before the call. */
  async current(workspaceId: number): Promise<WorkspaceIndex> {
    let pending = this.refreshing.get(workspaceId);
    if (!pending) {
      pending = this.refresh(workspaceId).finally(() => this.refreshing.delete(workspaceId));
      this.refreshing.set(workspaceId, pending);
    }
    const view = await pending;
    view.lastUsed = Date.now();
    return view.index;
  }

  /** Drops every index (a rebuilt view under another schema, a test). */
  clear(): void {
    this.views.clear();
  }

  private async refresh(workspaceId: number): Promise<View> {
    const target = await this.revisions(workspaceId);
    let view = this.views.get(workspaceId);
    // A view whose revisions went back was rebuilt from an earlier log: start again.
    if (
      view &&
      (target.contacts < view.revisions.contacts || target.suppressions < view.revisions.suppressions)
    )
      view = undefined;
    if (!view) {
      view = {
        index: new WorkspaceIndex({ phoneE164: toE164 }),
        revisions: { contacts: -1, suppressions: -1 },
        contacts: 0,
        lastUsed: 0,
      };
      this.views.set(workspaceId, view);
    }
    const from = view.revisions;
    if (target.contacts > from.contacts) {
      await this.loadContacts(view.index, workspaceId, from.contacts, target.contacts);
      view.contacts = view.index.size;
      await this.loadEvents(view.index, workspaceId, from.contacts, target.contacts);
    }
    if (target.suppressions > from.suppressions)
      await this.loadSuppressions(view.index, workspaceId, from.suppressions, target.suppressions);
    view.revisions = target;
    this.evict(workspaceId);
    return view;
  }

  /**
   * The committed revisions of the workspace's view. Everything at or below them is committed (they
   * commit in order), so reading the rows in (held, target] misses nothing and sees no half change.
   */
  private async revisions(workspaceId: number): Promise<Revisions> {
    const rows: Array<{ contacts_revision: string; suppressions_revision: string }> =
      await this.options.dataSource.query(
        'SELECT contacts_revision, suppressions_revision FROM workspace_revisions WHERE workspace_id = $1',
        [workspaceId],
      );
    const row = rows[0];
    return row
      ? { contacts: Number(row.contacts_revision), suppressions: Number(row.suppressions_revision) }
      : { contacts: -1, suppressions: -1 };
  }

  /** The contacts changed in (after, upTo], by id pages. */
  private async loadContacts(
    index: WorkspaceIndex,
    workspaceId: number,
    after: number,
    upTo: number,
  ): Promise<void> {
    let lastId = '0';
    for (;;) {
      const rows: ContactRow[] = await this.options.dataSource.query(
        `SELECT id, name, phone, email, external_id, source, data, marketing_consent, channels, tag_ids,
                created_at, updated_at, revision
           FROM contacts
          WHERE workspace_id = $1 AND revision > $2 AND revision <= $3 AND id > $4
          ORDER BY id LIMIT $5`,
        [workspaceId, after, upTo, lastId, PAGE],
      );
      if (rows.length === 0) return;
      index.upsertContacts(
        rows.map((row) => ({
          id: Number(row.id),
          name: row.name,
          phone: row.phone,
          email: row.email,
          external_id: row.external_id,
          source: row.source,
          data: row.data,
          marketing_consent: row.marketing_consent,
          channels: row.channels,
          tag_ids: row.tag_ids.map(Number),
          created_at: row.created_at.getTime(),
          updated_at: row.updated_at.getTime(),
        })),
      );
      lastId = rows[rows.length - 1]!.id;
      if (rows.length < PAGE) return;
    }
  }

  private async loadEvents(
    index: WorkspaceIndex,
    workspaceId: number,
    after: number,
    upTo: number,
  ): Promise<void> {
    let lastId = '0';
    for (;;) {
      const rows: Array<{ event_id: string; contact_id: string; name: string; occurred_at: Date }> =
        await this.options.dataSource.query(
          `SELECT event_id, contact_id, name, occurred_at FROM contact_events
            WHERE workspace_id = $1 AND revision > $2 AND revision <= $3 AND event_id > $4
            ORDER BY event_id LIMIT $5`,
          [workspaceId, after, upTo, lastId, PAGE * 5],
        );
      if (rows.length === 0) return;
      index.upsertEvents(
        rows.map((row) => ({
          event_id: Number(row.event_id),
          contact_id: Number(row.contact_id),
          name: row.name,
          occurred_at: row.occurred_at.getTime(),
        })),
      );
      lastId = rows[rows.length - 1]!.event_id;
      if (rows.length < PAGE * 5) return;
    }
  }

  private async loadSuppressions(
    index: WorkspaceIndex,
    workspaceId: number,
    after: number,
    upTo: number,
  ): Promise<void> {
    const rows: Array<{ id: string; channel: ChannelType; address: string; active: boolean }> =
      await this.options.dataSource.query(
        `SELECT id, channel, address, active FROM suppressions
          WHERE workspace_id = $1 AND revision > $2 AND revision <= $3`,
        [workspaceId, after, upTo],
      );
    index.upsertSuppressions(rows);
  }

  /** Keeps the cached contacts under the bound, dropping the least recently used indexes but `keep`. */
  private evict(keep: number): void {
    let total = 0;
    for (const view of this.views.values()) total += view.contacts;
    if (total <= this.options.maxContacts) return;
    const byAge = [...this.views.entries()]
      .filter(([id]) => id !== keep)
      .sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [id, view] of byAge) {
      if (total <= this.options.maxContacts) break;
      this.views.delete(id);
      total -= view.contacts;
      this.options.logger.info({ workspace_id: id, contacts: view.contacts }, 'segment index evicted');
    }
  }
}
