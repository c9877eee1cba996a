import {
  BOT_INPUT_TYPES,
  createEnvelope,
  deterministicId,
  type BotAudienceRecordedV1,
  type ContactSnapshotV1,
} from '@cms/contracts';
import { appendToOutbox, envelopeRecord } from '@cms/kafka';
import { idFromDatabase } from '@cms/persistence';
import { PolledWorker, SAFETY_POLL_MS, type WorkerSettings } from '@cms/service-kit';
import { In, type EntityManager } from 'typeorm';

import { SOURCE } from '../config';
import { ContactEntity } from '../contacts/contact.entity';
import { contactSnapshot } from '../runs/run-inputs';
import type { AudienceMembers } from './audience-members';
import { BOT_AUDIENCE_WALKS_SIGNAL } from './conversation-decisions';

export interface AudienceWalkWorkerOptions extends WorkerSettings {
  requestsTopic: string;
  audiences: AudienceMembers;
}

/** Members per page: a page is one record of at most this many contacts. */
export const AUDIENCE_PAGE = 100;

interface WalkRow {
  tick_id: string;
  workspace_id: string;
  bot_id: string;
  audience_id: string;
  contact_id: string | null;
  after_contact_id: string;
  pages: number;
}

/**
 * Walks the audiences bots start conversations with (extensions §12): a schedule bot's audience at a
 * tick, page by page, or whether one contact of an event bot is a member. Each page is asked of the
 * segments service and recorded, with each member as the service's view has it, as an
 * automation.bot-audience.recorded record in the transaction that moves the walk on; so a crash
 * between pages asks the page again and records it once, and a rebuild asks nothing.
 */
export class AudienceWalkWorker extends PolledWorker {
  constructor(private readonly options: AudienceWalkWorkerOptions) {
    super({
      concurrency: 1,
      pollMs: SAFETY_POLL_MS,
      logger: options.logger,
      wakeOn: { ...options.wakeOn, signal: BOT_AUDIENCE_WALKS_SIGNAL },
    });
  }

  protected async turn(): Promise<boolean> {
    let walked = false;
    await this.options.dataSource.transaction(async (manager) => {
      const rows: WalkRow[] = await manager.query(
        `SELECT tick_id, workspace_id, bot_id, audience_id, contact_id, after_contact_id, pages
         FROM bot_audience_walks ORDER BY tick_id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      const walk = rows[0];
      if (walk === undefined) return;
      walked = true;
      await this.step(manager, walk);
    });
    if (walked) this.options.onOutboxWritten();
    return walked;
  }

  private async step(manager: EntityManager, walk: WalkRow): Promise<void> {
    const workspaceId = idFromDatabase(walk.workspace_id);
    const audienceId = idFromDatabase(walk.audience_id);
    const contactId = idFromDatabase(walk.contact_id);
    let members: number[];
    let next: number | null;
    let error: string | undefined;
    if (contactId !== null) {
      const memberships = await this.options.audiences.memberships(workspaceId, contactId, [audienceId]);
      members = memberships[String(audienceId)] ? [contactId] : [];
      next = null;
    } else {
      const page = await this.options.audiences.page(
        workspaceId,
        audienceId,
        idFromDatabase(walk.after_contact_id),
        AUDIENCE_PAGE,
      );
      members = page?.contactIds ?? [];
      next = page?.next ?? null;
      if (page === null) error = `audience ${audienceId} was not found`;
    }
    const contacts = await this.snapshots(manager, workspaceId, members);
    const data: BotAudienceRecordedV1 = {
      bot_id: idFromDatabase(walk.bot_id),
      tick_id: walk.tick_id,
      contacts,
      ...(error === undefined ? {} : { error }),
      last: next === null,
    };
    await appendToOutbox(manager, [
      envelopeRecord(
        this.options.requestsTopic,
        createEnvelope({
          id: deterministicId(walk.tick_id, 'page', walk.pages),
          type: BOT_INPUT_TYPES.audience,
          source: SOURCE,
          workspaceid: String(workspaceId),
          subject: String(data.bot_id),
          time: new Date().toISOString(),
          data,
        }),
      ),
    ]);
    if (next === null)
      await manager.query('DELETE FROM bot_audience_walks WHERE tick_id = $1', [walk.tick_id]);
    else
      await manager.query(
        'UPDATE bot_audience_walks SET after_contact_id = $2, pages = pages + 1 WHERE tick_id = $1',
        [walk.tick_id, next],
      );
  }

  /** The members as the view has them; one the view has not seen yet is started without its fields. */
  private async snapshots(
    manager: EntityManager,
    workspaceId: number,
    ids: number[],
  ): Promise<ContactSnapshotV1[]> {
    if (ids.length === 0) return [];
    const rows = await manager.getRepository(ContactEntity).findBy({ id: In(ids), workspaceId });
    const known = new Map(rows.map((row) => [row.id, contactSnapshot(row)]));
    const at = new Date().toISOString();
    return ids.map(
      (id) =>
        known.get(id) ?? {
          contact_id: id,
          name: null,
          phone: null,
          email: null,
          external_id: null,
          source: null,
          data: {},
          marketing_consent: {},
          tag_ids: [],
          channels: {},
          created_at: at,
          updated_at: at,
        },
    ) as ContactSnapshotV1[];
  }
}
