import { Client } from 'pg';
import type { Logger } from 'pino';
import type { Registry, RegistryContentType } from 'prom-client';
import type { DataSource } from 'typeorm';

import type { BatchingProducer } from '../producer/batching-producer';
import { MAX_PRODUCE_REQUEST_BYTES } from '../records/record-bounds';
import { kafkaMetrics, type KafkaMetrics } from '../telemetry/kafka-metrics';
import { outboxChannel } from './outbox';

export interface OutboxRelayOptions {
  dataSource: DataSource;
  /** Connection string for the relay's own session (leadership lock and LISTEN). */
  databaseUrl: string;
  schema: string;
  producer: BatchingProducer;
  logger: Logger;
  /**
   * Rows in one produce request at most (default 5,000). One decision can publish thousands of facts
   * (a batch of 1,000 contacts: 1,000 contact.created and its consent flips), and its outcome and the
   * other partitions' outcomes committed meanwhile come after them: cut at 1,000 rows, those waited for
   * one more round (a select, a produce, a delete) after the facts.
   */
  batchSize?: number;
  /**
   * Bytes of rows (key, value, headers) in one produce request at most; a row over it goes alone. The
   * broker refuses a partition's batch over the topic's `max.message.bytes`, and records of any size
   * must get through in order, so a batch is cut by bytes as well as by rows.
   */
  batchBytes?: number;
  /**
   * How often the first waiting row is looked at while rows wait, to tell a relay that moves from one
   * that does not (every 5 s when the outbox was empty at the last look).
   */
  progressProbeMs?: number;
  /** Safety net when a notification is missed: the commit that writes rows wakes the relay (default 5 s). */
  pollMs?: number;
  /** How often a replica that is not the relay checks whether the relay went away. */
  standbyMs?: number;
  /** The service's registry: `cms_outbox_backlog` and `cms_outbox_published_total` go there. */
  metrics?: Registry<RegistryContentType>;
  /** Rows deleted after which the relay vacuums the outbox itself (default 20,000; 0: never). */
  vacuumAfterRows?: number;
}

/** Messages one produce call of the relay carries at most (see publishBatch). */
const MESSAGES_PER_SEND = 1000;

/** How often an empty outbox is looked at for rows that no relay moves. */
const EMPTY_PROBE_MS = 5000;

/** A scrape never waits longer than this for the backlog count; it shows the last count instead. */
const BACKLOG_READ_TIMEOUT_MS = 1000;

interface OutboxRow {
  id: string;
  topic: string;
  key: string | null;
  value: string;
  headers: Record<string, string>;
  /** Rows among the first batchSize, published or not. */
  waiting: number;
}

/**
 * Publishes the outbox in id order (= commit order, see appendToOutbox), then deletes what the broker
 * acknowledged. One replica per schema relays at a time (a session advisory lock); the others stand
 * by. A crash between the acknowledgement and the delete publishes those rows again on restart,
 * so consumers of fact topics deduplicate by envelope id.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly standbyMs: number;
  private session: Client | undefined;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private pendingKick = false;
  private leader = false;
  private published = 0;
  private readonly metrics: KafkaMetrics | undefined;
  private stopReportingBacklog: (() => void) | undefined;
  private lastBacklog = 0;
  private drainUntil = 0;
  private readonly batchBytes: number;
  private readonly progressProbeMs: number;
  /** The first row waiting when last looked at, and since when it has been the first. */
  private head: { id: string | null; since: number } = { id: null, since: Date.now() };
  /**
   * No row of the outbox has an id at or below this one, nor will while the database runs on (ids are
   * drawn in commit order, see appendToOutbox, and only the first rows are deleted): every read starts
   * above it. A read from the start of the index walks every row deleted since the table was last
   * vacuumed, and under a steady stream of facts those are hundreds of thousands: a million contacts
   * imported took each delete 300 ms and each look at the head 330 ms that way, the largest part of
   * Postgres' work.
   *
   * It holds for one life of the database only. A server that restarts after a crash with commits
   * not yet written (`synchronous_commit=off`), or a failover to a replica behind its primary, loses
   * the last commits and with them the sequence's last values: it hands out ids at or below ones the
   * relay has seen, and rows above a floor kept across would wait unseen for ever. Every such event
   * ends the relay's session, and a relay without one is no leader: the floor goes back to 0 each
   * time the relay takes the leadership.
   */
  private floor = '0';
  private readonly vacuumAfterRows: number;
  /** Rows deleted since the outbox was last vacuumed by the relay. */
  private deletedSinceVacuum = 0;
  private vacuuming: Promise<void> | undefined;
  private probeTimer: NodeJS.Timeout | undefined;
  private stopReportingStall: (() => void) | undefined;

  constructor(private readonly options: OutboxRelayOptions) {
    this.batchSize = options.batchSize ?? 5000;
    this.pollMs = options.pollMs ?? 5000;
    this.standbyMs = options.standbyMs ?? 2000;
    this.batchBytes = options.batchBytes ?? MAX_PRODUCE_REQUEST_BYTES;
    this.vacuumAfterRows = options.vacuumAfterRows ?? 20_000;
    this.progressProbeMs = options.progressProbeMs ?? 1000;
    this.metrics = options.metrics ? kafkaMetrics(options.metrics) : undefined;
  }

  /**
   * How long, in ms, the first row waiting in the outbox has been the first: 0 when the outbox is
   * empty. Rows are published strictly by id, so while it grows nothing is published, by this replica
   * or the leader elsewhere (a broker refusing the batch, the topic missing, the relay gone).
   */
  stalledMs(now = Date.now()): number {
    return this.head.id === null ? 0 : now - this.head.since;
  }

  private async probeHead(): Promise<void> {
    const rows: Array<{ id: string }> = await this.options.dataSource.query(
      // The id as the driver hands a bigint over (a string): `id::text AS id` would be what ORDER BY
      // names, and the whole table would be sorted as text for its first row.
      'SELECT id FROM outbox WHERE id > $1 ORDER BY id LIMIT 1',
      [this.floor],
    );
    const id = rows[0]?.id ?? null;
    if (id !== this.head.id) this.head = { id, since: Date.now() };
    if (id !== null) this.raiseFloor(String(BigInt(id) - 1n));
  }

  get isLeader(): boolean {
    return this.leader;
  }

  get publishedCount(): number {
    return this.published;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopReportingBacklog = this.metrics?.addBacklogReader(() => this.reportedBacklog());
    this.stopReportingStall = this.metrics?.addOutboxStallReader(() => this.stalledMs());
    this.scheduleProbe();
    this.loop = this.run();
  }

  /** The next look at the first waiting row: soon while rows wait, seldom while the outbox is empty. */
  private scheduleProbe(): void {
    const delay =
      this.head.id === null ? Math.max(EMPTY_PROBE_MS, this.progressProbeMs) : this.progressProbeMs;
    this.probeTimer = setTimeout(() => {
      // The database away is another check's business: the last look stands meanwhile.
      void this.probeHead()
        .catch(() => undefined)
        .finally(() => {
          if (this.running) this.scheduleProbe();
        });
    }, delay);
    this.probeTimer.unref();
  }

  /** Something was committed to the outbox: publish without waiting for the poll. */
  kick(): void {
    this.pendingKick = true;
    // Only the leader publishes: a standby, or a relay pausing after a failure, keeps its own pace.
    if (this.leader) this.wake?.();
  }

  /**
   * Stops relaying. A leader first publishes what is waiting, for up to `drainMs`, so a service that
   * shuts down leaves nothing behind for the next leader to pick up late.
   */
  async stop(drainMs = 5000): Promise<void> {
    this.drainUntil = Date.now() + drainMs;
    this.running = false;
    this.stopReportingBacklog?.();
    this.stopReportingStall?.();
    clearTimeout(this.probeTimer);
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  /** Rows not yet published. */
  async backlog(): Promise<number> {
    const rows: Array<{ count: string }> = await this.options.dataSource.query(
      'SELECT count(*)::text AS count FROM outbox',
    );
    return Number(rows[0]?.count ?? 0);
  }

  /** The backlog for a scrape: the last count when the database is slow or down, never an error. */
  private async reportedBacklog(): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<number>((resolve) => {
      timer = setTimeout(() => resolve(this.lastBacklog), BACKLOG_READ_TIMEOUT_MS);
    });
    const read = this.backlog().then(
      (count) => (this.lastBacklog = count),
      () => this.lastBacklog,
    );
    try {
      return await Promise.race([read, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async run(): Promise<void> {
    while (this.running || (this.leader && Date.now() < this.drainUntil)) {
      try {
        if (this.running) await this.ensureSession();
        if (!this.leader) {
          // A standby publishes nothing: a commit notification is no reason to try for the lock early.
          this.pendingKick = false;
          await this.sleep(this.standbyMs);
          continue;
        }
        const { sent, full } = await this.publishBatch();
        if (!this.running && sent === 0) break;
        if (!full) await this.sleep(this.pollMs);
      } catch (error) {
        this.options.logger.error({ err: error }, 'outbox relay failed; retrying');
        await this.dropSession();
        // A kick that came before the failure must not cut the pause short, or the relay spins while
        // the database is away; the next batch reads every row anyway.
        this.pendingKick = false;
        await this.sleep(1000);
      }
    }
    await this.vacuuming;
    await this.dropSession();
  }

  private async ensureSession(): Promise<void> {
    if (!this.session) {
      const session = new Client({
        connectionString: this.options.databaseUrl,
        application_name: `${this.options.schema}-outbox-relay`,
      });
      session.on('error', (error) => this.options.logger.warn({ err: error }, 'outbox relay session lost'));
      session.on('notification', () => this.kick());
      session.on('end', () => {
        if (this.session === session) {
          this.session = undefined;
          this.leader = false;
        }
      });
      await session.connect();
      this.session = session;
      await session.query(`LISTEN "${outboxChannel(this.options.schema)}"`);
    }
    if (!this.leader) {
      const result = await this.session.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
        [`${this.options.schema}:outbox-relay`],
      );
      this.leader = result.rows[0]?.locked === true;
      if (this.leader) {
        this.floor = '0';
        this.options.logger.info({ schema: this.options.schema }, 'outbox relay is leader');
      }
    }
  }

  private async dropSession(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    this.leader = false;
    if (session) await session.end().catch(() => undefined);
  }

  /** `full`: the batch was cut by rows or bytes, so more rows may be waiting already. */
  private async publishBatch(): Promise<{ sent: number; full: boolean }> {
    this.pendingKick = false;
    const rows: OutboxRow[] = await this.options.dataSource.query(
      // pg hands bigint over as a string; ordering stays numeric because the column is not cast.
      // The first rows up to batchBytes (octet_length of a stored value reads no more than its header);
      // the first row whatever its size, so that one never blocks the rest. Each row is then read by
      // its id (LATERAL … LIMIT 1 is never made a join): a queue's statistics are wrong most of the
      // time, and with the table believed empty the planner joined the outbox to the batch by reading
      // the batch again for every row of the outbox, 4.5 s a batch.
      `WITH head AS (
         SELECT id, octet_length(value) + coalesce(octet_length(key), 0) + octet_length(headers::text) AS size
           FROM outbox WHERE id > $3 ORDER BY id LIMIT $1),
       sized AS (
         SELECT id, sum(size) OVER (ORDER BY id) AS running, row_number() OVER (ORDER BY id) AS n,
                count(*) OVER () AS waiting
           FROM head)
       SELECT s.id, o.topic, o.key, o.value, o.headers, s.waiting::int AS waiting
         FROM sized s
        CROSS JOIN LATERAL (SELECT topic, key, value, headers FROM outbox WHERE outbox.id = s.id LIMIT 1) o
        WHERE s.n = 1 OR s.running <= $2
        ORDER BY s.id`,
      [this.batchSize, this.batchBytes, this.floor],
    );
    if (rows.length === 0) return { sent: 0, full: false };
    // In sends of at most MESSAGES_PER_SEND, one after the other (the order of each partition kept):
    // kafkajs groups a send's messages by partition at a cost that grows with the square of their
    // number in one partition, which a workspace's thousands of facts in a row all share.
    for (let start = 0; start < rows.length; start += MESSAGES_PER_SEND) {
      const byTopic = new Map<
        string,
        Array<{ key: string | null; value: string; headers: Record<string, string> }>
      >();
      for (const row of rows.slice(start, start + MESSAGES_PER_SEND)) {
        const messages = byTopic.get(row.topic) ?? [];
        messages.push({ key: row.key, value: row.value, headers: row.headers });
        byTopic.set(row.topic, messages);
      }
      await this.options.producer.sendBatch([...byTopic].map(([topic, messages]) => ({ topic, messages })));
    }
    const last = rows[rows.length - 1]!.id;
    // The rows read are the first ones: nothing is below the first of them.
    await this.options.dataSource.query('DELETE FROM outbox WHERE id >= $1 AND id <= $2', [
      rows[0]!.id,
      last,
    ]);
    this.raiseFloor(last);
    this.deletedSinceVacuum += rows.length;
    if (this.vacuumAfterRows > 0 && this.deletedSinceVacuum >= this.vacuumAfterRows) this.vacuum();
    this.published += rows.length;
    this.metrics?.outboxPublished.inc(rows.length);
    return { sent: rows.length, full: rows[0]!.waiting > rows.length || rows.length === this.batchSize };
  }

  /**
   * Every row of the outbox is deleted soon after it is written: the table is a queue, and its dead rows
   * must be vacuumed away for its pages to be used again and its statistics to stay true. Autovacuum
   * may be off, and where it is on its default threshold (a fifth of a table the statistics think
   * large) lets a busy outbox grow to hundreds of thousands of dead rows, which the planner counts as
   * rows: a million contacts imported left the contacts outbox with 700,000 dead rows and the relay's
   * look at its first row a parallel scan of half a gigabyte. The relay that deleted them vacuums
   * them, in the background (VACUUM takes no lock that writers or the relay wait for), one at a time.
   */
  private vacuum(): void {
    if (this.vacuuming) return;
    this.deletedSinceVacuum = 0;
    this.vacuuming = this.options.dataSource
      .query('VACUUM outbox')
      .then(
        () => undefined,
        (error: unknown) => this.options.logger.warn({ err: error }, 'outbox vacuum failed'),
      )
      .finally(() => (this.vacuuming = undefined));
  }

  private raiseFloor(id: string): void {
    if (BigInt(id) > BigInt(this.floor)) this.floor = id;
  }

  private sleep(ms: number): Promise<void> {
    if (this.pendingKick || !this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }
}
