import type { EntityManager } from 'typeorm';

import { linkToken, tokenHash } from './link-rewriting';

/** A tracked link as stored: what the decisions read and write of it. */
export interface LinkRow {
  messageId: string;
  linkIndex: number;
  workspaceId: number;
  tokenHash: string;
  url: string;
  clicks: number;
  botClicks: number;
  firstClickedAt: Date | null;
  lastClickedAt: Date | null;
  createdAt: Date;
}

/** A click a decision counts on a link: a bot's, or a person's at `at`. */
export interface CountedClick {
  bot: boolean;
  at: Date;
}

/** The link after `click`: a bot's changes only its count, a person's also the times. */
export function afterClick(link: LinkRow, click: CountedClick): LinkRow {
  if (click.bot) return { ...link, botClicks: link.botClicks + 1 };
  return {
    ...link,
    clicks: link.clicks + 1,
    firstClickedAt: link.firstClickedAt ?? click.at,
    lastClickedAt: click.at,
  };
}

/** The rows of a message's tracked links, their tokens derived again from the message id and index. */
export function newLinks(
  secretsKey: string,
  workspaceId: number,
  messageId: string,
  links: ReadonlyArray<{ url: string }>,
  at: Date,
): LinkRow[] {
  return links.map((link, linkIndex) => ({
    messageId,
    linkIndex,
    workspaceId,
    tokenHash: tokenHash(linkToken(secretsKey, messageId, linkIndex)),
    url: link.url,
    clicks: 0,
    botClicks: 0,
    firstClickedAt: null,
    lastClickedAt: null,
    createdAt: at,
  }));
}

function isoOrNull(value: Date | null): string | null {
  return value === null ? null : value.toISOString();
}

/** Links, each unless the message has it already (a rebuild that decides the attempt again). */
export async function insertLinks(manager: EntityManager, links: LinkRow[]): Promise<void> {
  if (links.length === 0) return;
  await manager.query(
    `INSERT INTO message_links (message_id, link_index, workspace_id, token_hash, url, clicks, bot_clicks,
                                first_clicked_at, last_clicked_at, created_at)
     SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[], $4::text[], $5::text[], $6::int[], $7::int[],
                          $8::timestamptz[], $9::timestamptz[], $10::timestamptz[])
     ON CONFLICT DO NOTHING`,
    [
      links.map((link) => link.messageId),
      links.map((link) => link.linkIndex),
      links.map((link) => link.workspaceId),
      links.map((link) => link.tokenHash),
      links.map((link) => link.url),
      links.map((link) => link.clicks),
      links.map((link) => link.botClicks),
      links.map((link) => isoOrNull(link.firstClickedAt)),
      links.map((link) => isoOrNull(link.lastClickedAt)),
      links.map((link) => link.createdAt.toISOString()),
    ],
  );
}

/** The click counts and times of links, as their decisions left them: one statement for many. */
export async function updateLinkCounts(manager: EntityManager, links: LinkRow[]): Promise<void> {
  if (links.length === 0) return;
  await manager.query(
    `UPDATE message_links l
        SET clicks = u.clicks, bot_clicks = u.bot_clicks,
            first_clicked_at = u.first_clicked_at, last_clicked_at = u.last_clicked_at
       FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::timestamptz[], $6::timestamptz[])
         AS u(message_id, link_index, clicks, bot_clicks, first_clicked_at, last_clicked_at)
      WHERE l.message_id = u.message_id AND l.link_index = u.link_index`,
    [
      links.map((link) => link.messageId),
      links.map((link) => link.linkIndex),
      links.map((link) => link.clicks),
      links.map((link) => link.botClicks),
      links.map((link) => isoOrNull(link.firstClickedAt)),
      links.map((link) => isoOrNull(link.lastClickedAt)),
    ],
  );
}

/** The stored links of messages (all their indexes), as rows. */
export async function selectLinks(manager: EntityManager, messageIds: string[]): Promise<LinkRow[]> {
  if (messageIds.length === 0) return [];
  const rows = (await manager.query('SELECT * FROM message_links WHERE message_id = ANY ($1::text[])', [
    messageIds,
  ])) as Array<Record<string, unknown>>;
  return rows.map(linkRowOf);
}

export function linkRowOf(row: Record<string, unknown>): LinkRow {
  const date = (value: unknown): Date | null => (value == null ? null : new Date(value as string));
  return {
    messageId: row['message_id'] as string,
    linkIndex: Number(row['link_index']),
    workspaceId: Number(row['workspace_id']),
    tokenHash: row['token_hash'] as string,
    url: row['url'] as string,
    clicks: Number(row['clicks']),
    botClicks: Number(row['bot_clicks']),
    firstClickedAt: date(row['first_clicked_at']),
    lastClickedAt: date(row['last_clicked_at']),
    createdAt: date(row['created_at'])!,
  };
}

/** A message's link as the API shows it (extensions §9, `links`). */
export interface LinkResource {
  url: string;
  link_index: number;
  clicks: number;
  bot_clicks: number;
  first_clicked_at: string | null;
  last_clicked_at: string | null;
}

function iso(value: unknown): string | null {
  return value === null || value === undefined ? null : new Date(value as string).toISOString();
}

/** The links of messages, by message id, in link order: one statement for a page of messages. */
export async function linksOf(
  manager: EntityManager,
  messageIds: string[],
): Promise<Map<string, LinkResource[]>> {
  const byMessage = new Map<string, LinkResource[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = (await manager.query(
    `SELECT message_id, link_index, url, clicks, bot_clicks, first_clicked_at, last_clicked_at
       FROM message_links WHERE message_id = ANY ($1::text[]) ORDER BY message_id, link_index`,
    [messageIds],
  )) as Array<Record<string, unknown>>;
  for (const row of rows) {
    const id = row['message_id'] as string;
    const links = byMessage.get(id) ?? [];
    links.push({
      url: row['url'] as string,
      link_index: Number(row['link_index']),
      clicks: Number(row['clicks']),
      bot_clicks: Number(row['bot_clicks']),
      first_clicked_at: iso(row['first_clicked_at']),
      last_clicked_at: iso(row['last_clicked_at']),
    });
    byMessage.set(id, links);
  }
  return byMessage;
}
