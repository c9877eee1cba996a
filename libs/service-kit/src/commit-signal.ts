import { commitSignalChannel } from '@cms/kafka';
import { Client } from 'pg';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';

/**
 * Signals `signal` when the caller's transaction commits (a NOTIFY on commitSignalChannel, delivered on
 * commit, once per transaction however often it is sent, and never for a transaction rolled back), to
 * every replica listening: what the transaction made due can be acted on at once, wherever it is. The
 * outbox's relay is woken the same way (appendToOutbox signals `outbox`).
 */
export async function signalOnCommit(manager: EntityManager, signal: string): Promise<void> {
  await manager.query(`SELECT pg_notify($1 || '_' || current_schema(), '')`, [signal]);
}

export interface CommitSignalListenerOptions {
  databaseUrl: string;
  schema: string;
  signal: string;
  logger: Logger;
  onSignal(): void;
  /** The pause before listening again after the session was lost (default 1 s). */
  retryMs?: number;
}

/**
 * Listens for a commit signal on a session of its own, listening again after the session is lost. A
 * signal sent while no session listens is missed: whoever listens polls as well, and the signal only
 * spares it the wait.
 */
export class CommitSignalListener {
  private session: Client | undefined;
  private running = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly options: CommitSignalListenerOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.listen();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.retry);
    const session = this.session;
    this.session = undefined;
    await session?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const { databaseUrl, schema, signal, logger, onSignal } = this.options;
    const session = new Client({ connectionString: databaseUrl, application_name: `${schema}-${signal}` });
    session.on('notification', () => onSignal());
    session.on('error', (error) => logger.warn({ err: error, signal }, 'commit signal session lost'));
    session.on('end', () => {
      if (this.session !== session) return;
      this.session = undefined;
      this.again();
    });
    try {
      await session.connect();
      await session.query(`LISTEN "${commitSignalChannel(signal, schema)}"`);
    } catch (error) {
      logger.warn({ err: error, signal }, 'could not listen for a commit signal; trying again');
      await session.end().catch(() => undefined);
      this.again();
      return;
    }
    if (!this.running) {
      await session.end().catch(() => undefined);
      return;
    }
    this.session = session;
    // Whatever was signalled while nobody listened is looked for now.
    onSignal();
  }

  private again(): void {
    if (!this.running) return;
    this.retry = setTimeout(() => void this.listen(), this.options.retryMs ?? 1000);
    this.retry.unref();
  }
}
