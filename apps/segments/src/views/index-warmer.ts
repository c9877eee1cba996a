import type { BackgroundWorker } from '@cms/service-kit';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

import type { WorkspaceViews } from './workspace-views';

export interface IndexWarmerOptions {
  dataSource: DataSource;
  views: WorkspaceViews;
  /** Contacts the warmed indexes hold at most together (the cache's own bound). */
  maxContacts: number;
  logger: Logger;
}

/**
 * Builds, once the service has started, the indexes of the workspaces that use audiences (those with
 * one saved), largest first, while they fit the cache together. A million contacts take seconds to
 * index, longer than the gateway waits for a preview: without this, the first preview of a large
 * workspace after every start or deploy would be answered 503 while its index is built. It runs once,
 * in the background, and never holds the service back from being ready; a preview of a workspace
 * being warmed waits for the same build (WorkspaceViews shares it).
 */
export class IndexWarmer implements BackgroundWorker {
  private running = false;
  private work: Promise<void> = Promise.resolve();

  constructor(private readonly options: IndexWarmerOptions) {}

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.work = this.warm().catch((error: unknown) => {
      // A cache that stays cold is built on first use instead: nothing is lost.
      this.options.logger.warn({ err: error }, 'segment indexes not warmed');
    });
  }

  /** Settles when the warming started last is over. */
  whenWarmed(): Promise<void> {
    return this.work;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.work;
  }

  /** The workspaces to warm, in order, with their contacts: those with an audience, largest first. */
  async candidates(): Promise<Array<{ workspaceId: number; contacts: number }>> {
    const rows: Array<{ workspace_id: string; contacts: string }> = await this.options.dataSource.query(
      `SELECT c.workspace_id::text AS workspace_id, count(*)::text AS contacts FROM contacts c
        WHERE c.workspace_id IN (SELECT DISTINCT workspace_id FROM audiences)
        GROUP BY c.workspace_id ORDER BY count(*) DESC, c.workspace_id`,
    );
    return rows.map((row) => ({ workspaceId: Number(row.workspace_id), contacts: Number(row.contacts) }));
  }

  private async warm(): Promise<void> {
    const started = Date.now();
    let total = 0;
    const warmed: number[] = [];
    for (const { workspaceId, contacts } of await this.candidates()) {
      if (!this.running) return;
      if (total + contacts > this.options.maxContacts) continue;
      await this.options.views.current(workspaceId);
      total += contacts;
      warmed.push(workspaceId);
    }
    if (warmed.length === 0) return;
    this.options.logger.info(
      { workspaces: warmed.length, contacts: total, ms: Date.now() - started },
      'segment indexes warmed',
    );
  }
}
