import {
  CONTACT_REQUEST_TYPES,
  deterministicId,
  MESSAGING_REQUEST_TYPES,
  type ConsentChannel,
  type ContactConsentChangeRequestedV1,
  type MessageAttemptRecordedV1,
} from '@cms/contracts';
import { idFromDatabase } from '@cms/persistence';
import { In, type DataSource } from 'typeorm';

import { ChannelEntity, PushSubscriptionEntity } from '../channels/channel.entity';
import { ContactEntity } from '../contacts/contact.entity';
import { MessageEntity } from '../messages/message.entity';
import { TemplateEntity } from '../templates/template.entity';
import { appendWorkerRecords, attemptRecordId, type WorkerRecord } from './worker-records';

/** A send job this worker holds the lease of. */
export interface ClaimedJob {
  messageId: string;
  workspaceId: number;
  /** `sending`: a worker was asking the provider when its lease ran out. */
  state: 'pending' | 'sending';
  attempts: number;
  firstAttemptAt: Date;
  /** The lease, to the microsecond as the database holds it: only its holder may finish the job. */
  lease: string;
}

/** Everything sending a batch of messages reads, one query per table. */
export interface SendBatchRows {
  messages: Map<string, MessageEntity>;
  channels: Map<number, ChannelEntity>;
  templates: Map<number, TemplateEntity>;
  contacts: Map<number, ContactEntity>;
  pushSubscriptions: Map<string, PushSubscriptionEntity>;
}

/** What a job ends with: the attempt to record (the job is removed with it). */
export interface Finish {
  job: ClaimedJob;
  attempt: Omit<MessageAttemptRecordedV1, 'message_id' | 'attempted_at'>;
  /**
   * The contact the provider says opted out on the channel: their marketing consent there is revoked
   * (source provider) by the contacts service, asked in the same transaction.
   */
  optedOut?: { contactId: number; channel: ConsentChannel };
}

/** A job handed back for later, keeping its lease-less place in the queue. */
export interface Postponement {
  job: ClaimedJob;
  delayMs: number;
  /** Whether the provider was asked (counts toward the backoff). */
  counted: boolean;
  error: string;
}

interface ClaimRow {
  message_id: string;
  workspace_id: string;
  state: 'pending' | 'sending';
  attempts: number;
  first_attempt_at: Date;
  lease: string;
}

function byKey<K, V>(rows: V[], key: (row: V) => K): Map<K, V> {
  return new Map(rows.map((row) => [key(row), row]));
}

/**
 * The send jobs as a durable queue (DESIGN §4, §5): due jobs claimed in batches with FOR UPDATE SKIP
 * LOCKED and a lease; a job ends in the transaction that removes it and appends the record of its
 * attempt, so a message is attempted once whoever holds it, and a job whose worker died is taken up
 * again once its lease runs out.
 */
export class SendQueueRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly requestsTopic: string,
  ) {}

  /**
   * When the earliest job not claimable now becomes claimable (ms since the epoch): its due time, or the
   * end of its lease when a worker holds it. Undefined when there is no job.
   */
  async nextDueAt(): Promise<number | undefined> {
    const rows: Array<{ at: number | null }> = await this.dataSource.query(
      `SELECT (extract(epoch FROM min(greatest(due_at, coalesce(leased_until, due_at)))) * 1000)::float8 AS at
         FROM messaging_send_jobs`,
    );
    return rows[0]?.at ?? undefined;
  }

  /**
   * Up to `limit` due jobs of one lane, oldest first: the jobs of notification sends' messages (`bulk`),
   * or those of every other message. A batch never mixes them, so that a worker claims a message of
   * the API in its next turn however many of a send's are due.
   */
  async claim(limit: number, leaseMs: number, bulk: boolean): Promise<ClaimedJob[]> {
    const result: unknown = await this.dataSource.query(
      `WITH due AS (
         SELECT message_id FROM messaging_send_jobs
          WHERE bulk = $3 AND due_at <= now() AND (leased_until IS NULL OR leased_until <= now())
          ORDER BY due_at
          LIMIT $1
            FOR UPDATE SKIP LOCKED
       )
       UPDATE messaging_send_jobs j
          SET leased_until = now() + $2::float8 * interval '1 millisecond',
              first_attempt_at = COALESCE(j.first_attempt_at, now())
         FROM due
        WHERE j.message_id = due.message_id
       RETURNING j.message_id, j.workspace_id, j.state, j.attempts, j.first_attempt_at,
                 j.leased_until::text AS lease`,
      [limit, leaseMs, bulk],
    );
    const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as ClaimRow[];
    return rows.map((row) => ({
      messageId: row.message_id,
      workspaceId: idFromDatabase(row.workspace_id),
      state: row.state,
      attempts: row.attempts,
      firstAttemptAt: new Date(row.first_attempt_at),
      lease: row.lease,
    }));
  }

  async load(jobs: ClaimedJob[]): Promise<SendBatchRows> {
    const { manager } = this.dataSource;
    const messages = await manager.findBy(MessageEntity, { id: In(jobs.map((job) => job.messageId)) });
    const ids = (pick: (message: MessageEntity) => number | null): number[] => [
      ...new Set(messages.map(pick).filter((id): id is number => id !== null)),
    ];
    const [channels, templates, contacts] = await Promise.all([
      manager.findBy(ChannelEntity, { id: In(ids((message) => message.channelId)) }),
      manager.findBy(TemplateEntity, { id: In(ids((message) => message.templateId)) }),
      manager.findBy(ContactEntity, { id: In(ids((message) => message.contactId)) }),
    ]);
    const subscribers = [
      ...new Set(contacts.map((contact) => contact.channels.browser_push).filter((id) => id != null)),
    ] as string[];
    const pushSubscriptions =
      subscribers.length === 0
        ? []
        : await manager.findBy(PushSubscriptionEntity, { subscriberId: In(subscribers) });
    return {
      messages: byKey(messages, (row) => row.id),
      channels: byKey(channels, (row) => Number(row.id)),
      templates: byKey(templates, (row) => Number(row.id)),
      contacts: byKey(contacts, (row) => Number(row.id)),
      pushSubscriptions: byKey(pushSubscriptions, (row) => row.subscriberId),
    };
  }

  /** The addresses among `candidates` that are on their workspace's suppression list for the channel type. */
  async suppressed(
    candidates: Array<{ workspaceId: number; channel: string; address: string }>,
  ): Promise<Set<string>> {
    if (candidates.length === 0) return new Set();
    const rows: Array<{ workspace_id: string; channel: string; address: string }> =
      await this.dataSource.query(
        `SELECT s.workspace_id::text AS workspace_id, s.channel, s.address
         FROM suppressions s
         JOIN unnest($1::bigint[], $2::text[], $3::text[]) AS u(workspace_id, channel, address)
           ON s.workspace_id = u.workspace_id AND s.channel = u.channel AND s.address = u.address`,
        [
          candidates.map((candidate) => candidate.workspaceId),
          candidates.map((candidate) => candidate.channel),
          candidates.map((candidate) => candidate.address),
        ],
      );
    return new Set(rows.map((row) => suppressionKey(Number(row.workspace_id), row.channel, row.address)));
  }

  /**
   * Before a provider is asked: the jobs are marked `sending` (committed) under a lease long enough
   * for the call. Answers the jobs still held, with their new lease.
   */
  async markSending(jobs: ClaimedJob[], leaseMs: number): Promise<ClaimedJob[]> {
    if (jobs.length === 0) return [];
    const result: unknown = await this.dataSource.query(
      `UPDATE messaging_send_jobs j
          SET state = 'sending', leased_until = now() + $3::float8 * interval '1 millisecond'
         FROM unnest($1::text[], $2::timestamptz[]) AS u(id, lease)
        WHERE j.message_id = u.id AND j.leased_until = u.lease
       RETURNING j.message_id, j.leased_until::text AS lease`,
      [jobs.map((job) => job.messageId), jobs.map((job) => job.lease), leaseMs],
    );
    const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Array<{
      message_id: string;
      lease: string;
    }>;
    const leases = new Map(rows.map((row) => [row.message_id, row.lease]));
    return jobs
      .filter((job) => leases.has(job.messageId))
      .map((job) => ({ ...job, state: 'sending' as const, lease: leases.get(job.messageId)! }));
  }

  /**
   * Ends the jobs in one transaction: each still held is removed and the record of its attempt
   * appended to the outbox; a job whose lease another worker took meanwhile is left to that worker.
   * Answers how many were recorded.
   */
  async finish(finishes: Finish[]): Promise<number> {
    if (finishes.length === 0) return 0;
    return this.dataSource.transaction(async (manager) => {
      const result: unknown = await manager.query(
        `WITH done AS (
           DELETE FROM messaging_send_jobs j
            USING unnest($1::text[], $2::timestamptz[]) AS u(id, lease)
            WHERE j.message_id = u.id AND j.leased_until = u.lease
           RETURNING j.message_id
         )
         SELECT message_id, now() AS now FROM done`,
        [finishes.map((finish) => finish.job.messageId), finishes.map((finish) => finish.job.lease)],
      );
      const rows = result as Array<{ message_id: string; now: Date }>;
      if (rows.length === 0) return 0;
      const now = new Date(rows[0]!.now);
      const done = new Set(rows.map((row) => row.message_id));
      await appendWorkerRecords(
        manager,
        this.requestsTopic,
        finishes
          .filter((finish) => done.has(finish.job.messageId))
          .flatMap(({ job, attempt, optedOut }) => [
            {
              id: attemptRecordId(job.messageId),
              type: MESSAGING_REQUEST_TYPES.messageAttempt,
              workspaceId: job.workspaceId,
              messageId: job.messageId,
              data: { message_id: job.messageId, ...attempt, attempted_at: now.toISOString() },
            },
            ...(optedOut === undefined ? [] : [consentRevocation(job, optedOut, now)]),
          ]),
        now,
      );
      return rows.length;
    });
  }

  /** Removes jobs with nothing left to do (their message's attempt is on record already). */
  async drop(jobs: ClaimedJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.dataSource.query(
      `DELETE FROM messaging_send_jobs j
        USING unnest($1::text[], $2::timestamptz[]) AS u(id, lease)
        WHERE j.message_id = u.id AND j.leased_until = u.lease`,
      [jobs.map((job) => job.messageId), jobs.map((job) => job.lease)],
    );
  }

  /** Hands jobs back, due again after their delay; the lease ends and a provider's refusal counts. */
  async postpone(postponements: Postponement[]): Promise<void> {
    if (postponements.length === 0) return;
    await this.dataSource.query(
      `UPDATE messaging_send_jobs j
          SET due_at = now() + u.delay * interval '1 millisecond', leased_until = NULL, state = 'pending',
              attempts = j.attempts + u.counted::int, last_error = u.error
         FROM unnest($1::text[], $2::timestamptz[], $3::float8[], $4::boolean[], $5::text[])
              AS u(id, lease, delay, counted, error)
        WHERE j.message_id = u.id AND j.leased_until = u.lease`,
      [
        postponements.map((p) => p.job.messageId),
        postponements.map((p) => p.job.lease),
        postponements.map((p) => p.delayMs),
        postponements.map((p) => p.counted),
        postponements.map((p) => p.error.slice(0, 2048)),
      ],
    );
  }
}

/** `contact.consent-change.requested`: the provider's opt-out revokes the contact's consent on the channel. */
function consentRevocation(
  job: ClaimedJob,
  optedOut: NonNullable<Finish['optedOut']>,
  now: Date,
): WorkerRecord {
  const data: ContactConsentChangeRequestedV1 = {
    contact_id: optedOut.contactId,
    channel: optedOut.channel,
    granted: false,
    source: 'provider',
    occurred_at: now.toISOString(),
  };
  return {
    id: deterministicId(job.messageId, CONTACT_REQUEST_TYPES.consentChange),
    type: CONTACT_REQUEST_TYPES.consentChange,
    workspaceId: job.workspaceId,
    messageId: job.messageId,
    data,
  };
}

export function suppressionKey(workspaceId: number, channel: string, address: string): string {
  return `${workspaceId}\u001f${channel}\u001f${address}`;
}
