import { PolledWorker } from '@cms/service-kit';
import type { Logger } from 'pino';

import type { ChannelCredentials } from '../channels/channel-credentials';
import type { LinkTracking } from '../links/link-rewriting';
import type { ProviderAdapters } from '../providers/provider-adapters';
import type { ChannelConnection, SendResult } from '../providers/provider';
import { planSends, settleProviderSend, type ProviderSend } from './send-plan';
import type {
  ClaimedJob,
  Finish,
  Postponement,
  SendBatchRows,
  SendQueueRepository,
} from './send-queue.repository';
import { recipientOf } from './recipient-rules';
import { SEND_JOBS_SIGNAL } from './work-signals';

export interface SendWorkerOptions {
  queue: SendQueueRepository;
  adapters: ProviderAdapters;
  /** Opens a channel's credentials and makes its callback URL. */
  credentials: ChannelCredentials;
  /** Jobs claimed at once. */
  batchSize: number;
  /** Jobs of notification sends' messages claimed at once (they wait for every other due job). */
  bulkBatchSize: number;
  /** Batches in hand at once. */
  concurrency: number;
  /** The safety poll: the longest sleep when no job is due (a commit signal or a due time wakes it sooner). */
  pollMs: number;
  /** Where the commit signal of new send jobs (SEND_JOBS_SIGNAL) is listened for. */
  wakeOn: { databaseUrl: string; schema: string };
  /** Longest a provider may take to answer: the lease of a job being sent outlives it. */
  providerTimeoutMs: number;
  logger: Logger;
  /** Where tracked links point and the key of their tokens (extensions §10). */
  linkTracking?: LinkTracking;
  /** Called after a commit that wrote to the outbox. */
  onOutboxWritten(): void;
}

/** A claim's lease while the worker reads and decides (no provider is asked under it). */
const CLAIM_LEASE_MS = 30_000;
/** How long credentials that cannot be opened hold a message back: an operator has to fix SECRETS_KEY. */
const UNREADABLE_CREDENTIALS_RETRY_MS = 60_000;

/**
 * Sends the queued messages, outside the consumers (DESIGN §4): claims due send jobs in batches,
 * decides who may be messaged, sends sandbox messages on the spot and asks the real providers after
 * marking their jobs `sending`, and ends each job with the record of its attempt. A job found
 * `sending` after its lease ran out is never sent again: its outcome is unknown, and it fails so.
 */
export class SendWorker extends PolledWorker {
  constructor(private readonly options: SendWorkerOptions) {
    super({
      concurrency: options.concurrency,
      pollMs: options.pollMs,
      logger: options.logger,
      wakeOn: { ...options.wakeOn, signal: SEND_JOBS_SIGNAL },
    });
  }

  protected override nextDueAt(): Promise<number | undefined> {
    return this.options.queue.nextDueAt();
  }

  /** One batch: answers whether it was full (more may be due). */
  protected async turn(): Promise<boolean> {
    const { queue, batchSize, bulkBatchSize } = this.options;
    // A send's messages only when no other is due, and in smaller batches: a message of the API that
    // comes meanwhile waits for one such batch at most (extensions §13, pacing is fair).
    let limit = batchSize;
    let jobs = await queue.claim(limit, CLAIM_LEASE_MS, false);
    if (jobs.length === 0) {
      limit = bulkBatchSize;
      jobs = await queue.claim(limit, CLAIM_LEASE_MS, true);
    }
    if (jobs.length === 0) return false;
    const rows = await queue.load(jobs);
    const candidates: Array<{ workspaceId: number; channel: string; address: string }> = [];
    for (const message of rows.messages.values()) {
      const contact = message.contactId === null ? undefined : rows.contacts.get(Number(message.contactId));
      const address = contact && recipientOf(message.channelType, contact);
      if (address)
        candidates.push({ workspaceId: Number(message.workspaceId), channel: message.channelType, address });
    }
    const suppressed = await queue.suppressed(candidates);
    const plan = planSends(jobs, rows, suppressed, Date.now(), this.options.linkTracking);
    await queue.drop(plan.drops);
    await queue.postpone(plan.postponements);
    await this.finish(plan.finishes, rows);
    if (plan.providerSends.length > 0) await this.askProviders(plan.providerSends, rows);
    return jobs.length === limit;
  }

  /** Records the attempts; a provider's opt-out also asks for the contact's consent to be revoked. */
  private async finish(finishes: Finish[], rows: SendBatchRows): Promise<void> {
    const withOptOuts = finishes.map((finish): Finish => {
      const message = rows.messages.get(finish.job.messageId);
      if (finish.attempt.failure?.code !== 'opted_out' || message?.contactId == null) return finish;
      return { ...finish, optedOut: { contactId: Number(message.contactId), channel: message.channelType } };
    });
    if ((await this.options.queue.finish(withOptOuts)) > 0) this.options.onOutboxWritten();
  }

  private async askProviders(sends: ProviderSend[], rows: SendBatchRows): Promise<void> {
    const { queue, logger } = this.options;
    const ready: Array<{ send: ProviderSend; connection: ChannelConnection }> = [];
    const held: Postponement[] = [];
    for (const send of sends) {
      try {
        ready.push({ send, connection: this.options.credentials.connection(send.channel) });
      } catch {
        logger.error(
          { channel_id: send.channel.id },
          'channel credentials cannot be opened with SECRETS_KEY',
        );
        held.push({
          job: send.job,
          delayMs: UNREADABLE_CREDENTIALS_RETRY_MS,
          counted: false,
          error: 'credentials cannot be opened',
        });
      }
    }
    await queue.postpone(held);
    const marked = await queue.markSending(
      ready.map((entry) => entry.send.job),
      this.options.providerTimeoutMs + CLAIM_LEASE_MS,
    );
    const leases = new Map<string, ClaimedJob>(marked.map((job) => [job.messageId, job]));
    const results = await Promise.all(
      ready
        .filter(({ send }) => leases.has(send.job.messageId))
        .map(async ({ send, connection }) => {
          const job = leases.get(send.job.messageId)!;
          const result = await this.ask(connection, send);
          return settleProviderSend({ ...send, job }, result, Date.now());
        }),
    );
    const finishes: Finish[] = [];
    const later: Postponement[] = [];
    for (const settled of results) {
      if ('finish' in settled) finishes.push(settled.finish);
      else later.push(settled.postponement);
    }
    await queue.postpone(later);
    await this.finish(finishes, rows);
  }

  private async ask(connection: ChannelConnection, send: ProviderSend): Promise<SendResult> {
    try {
      return await this.options.adapters.of(connection.provider).send(connection, {
        ...send.message,
        callbackUrl: this.options.credentials.callbackUrl(send.channel),
      });
    } catch (error) {
      // An adapter answers every refusal it knows; anything else is the provider misbehaving.
      return {
        outcome: 'failed',
        code: 'provider_unavailable',
        providerCode: null,
        detail: error instanceof Error ? error.message : String(error),
      };
    }
  }
}
