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
  /** Default WARM_READY_WITHIN_MS. */
  readyWithinMs?: number;
}

/**
 * A replica is ready at the latest this long after it started, warm or not: past it, the indexes
 * still cold are built in the background, and on first use as before (`npm start` waits 60 s).
 */
export const WARM_READY_WITHIN_MS = 45_000;

/**
 * Builds, as the service starts, the indexes of the workspaces that use audiences (those with one
 * saved), largest first, while they fit the cache together. A million contacts take seconds to index,
 * longer than the gateway waits for a preview: without this, the first preview of a large workspace
 * after every start or deploy would be answered 503 while its index is built. The replica reports
 * ready (its readiness check is `isRunning`) once they are built, or WARM_READY_WITHIN_MS after it
 * started, whichever comes first, so a rolling deploy sends previews to warm replicas. A preview of a
 * workspace being warmed waits for the same build (WorkspaceViews shares it).
 */
export class IndexWarmer implements BackgroundWorker {
  private running = false;
  private warmed = false;
  private work: Promise<void> = Promise.resolve();
  private deadline: NodeJS.Timeout | undefined;

  constructor(private readonly options: IndexWarmerOptions) {}

  /** Started, and warm (or past WARM_READY_WITHIN_MS). */
  get isRunning(): boolean {
    return this.running && this.warmed;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.warmed = false;
    this.deadline = setTimeout(() => this.ready(true), this.options.readyWithinMs ?? WARM_READY_WITHIN_MS);
    this.deadline.unref();
    this.work = this.warm()
      .catch((error: unknown) => {
        // A cache that stays cold is built on first use instead: nothing is lost.
        this.options.logger.warn({ err: error }, 'segment indexes not warmed');
      })
      .finally(() => this.ready());
  }

  /** Settles when the warming started last is over. */
  whenWarmed(): Promise<void> {
    return this.work;
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.deadline);
    await this.work;
  }

  private ready(early = false): void {
    if (this.warmed) return;
    this.warmed = true;
    clearTimeout(this.deadline);
    if (early) this.options.logger.info('ready while segment indexes are still being warmed');
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
