import type { DecodedRecord, RecordTypeRegistry } from '@cms/contracts';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage, TopicPartitions } from 'kafkajs';
import type { Logger } from 'pino';
import type { Registry, RegistryContentType } from 'prom-client';
import type { DataSource } from 'typeorm';

import { CheckpointBehindError, CheckpointStore } from './checkpoint-store';
import { ConsumerTelemetry, type ConsumerStats } from './consumer-telemetry';
import { DeadLetterWriter, type RejectedRecord } from './dead-letter-writer';
import { shortenFetchesWhile } from '../fetch-wait-fix';
import { FailureRecovery } from './failure-recovery';
import { headerText } from '../telemetry/trace-headers';
import { partitionKey } from './partition-key';
import type { ChunkHandler, RecordContext } from './record-context';
import { SupervisedConsumer } from './supervised-consumer';
import { TransactionRunner, type Member, type Outcome } from './transaction-runner';
import { fetchSettings, TransactionScheduler, type FetchPolicy } from './transaction-scheduler';

/**
 * The time the batches of one fetch may take before each stops after its chunk in hand, so that the
 * next fetch brings the other partitions' new records (see ConsumerRuntime.fetchSpent).
 */
export const FETCH_SHARE_MS = 250;

/** A live consumer's chunk of at least this many records it applies is applied apart (see `large`). */
export const APART_RECORDS = 200;

export type { ChunkHandler, ChunkRecord, RecordContext } from './record-context';
export type { RejectedRecord } from './dead-letter-writer';
export { GATHERING_FETCH, LONG_POLL_FETCH, longPoll, type FetchPolicy } from './transaction-scheduler';
export { partitionKey } from './partition-key';

export interface ConsumerRuntimeOptions {
  /** Owner of the checkpoints and, unless groupId says otherwise, the consumer group. */
  name: string;
  groupId?: string;
  topics: string[];
  kafka: Kafka;
  dataSource: DataSource;
  registry: RecordTypeRegistry;
  logger: Logger;
  /** The service's registry: `cms_records_processed_total` and `cms_consumer_lag` go there. */
  metrics?: Registry<RegistryContentType>;
  handle(record: DecodedRecord, context: RecordContext): Promise<void>;
  /**
   * Applies runs of consecutive records it takes in one go. Only for chunks of more than one record:
   * a record applied on its own (looking for the one at fault) always goes to `handle`.
   */
  chunk?: ChunkHandler;
  /** Record types this consumer applies; other records only move the checkpoint on. Default: all. */
  accepts?(type: string): boolean;
  /** Runs in the transaction that dead-letters a record, e.g. to answer the request with a rejection. */
  onRejected?(rejected: RejectedRecord, context: RecordContext): Promise<void>;
  /** Called after every commit that wrote to the outbox. */
  onOutboxWritten?(): void;
  /** Where dead letters go; default `cms.deadletters.v1`. */
  deadLetterTopic?: string;
  /**
   * When the broker answers a fetch: once `minBytes` are there, or `maxWaitMs` after it was asked, and
   * how often the consumer fetches at most. Default LONG_POLL_FETCH. A consumer whose records are
   * mostly another service's can let them gather (GATHERING_FETCH), for far fewer fetches under load
   * at a few ms of delay.
   */
  fetch?: FetchPolicy;
  /** Records applied in one transaction at most. */
  maxRecordsPerTransaction?: number;
  /**
   * Transactions under way at the same time; default 1. The batches of the partitions a fetch
   * brought are applied together, in one transaction per `maxRecordsPerTransaction` records: a second
   * transaction lets Postgres write one while the next is decided.
   */
  transactionsConcurrently?: number;
  /**
   * How long the checkpoint of records this consumer only read past (none of its types) may stay
   * unstored; default 1000 ms. Nothing depends on it but how far `ops lag` shows such a consumer behind.
   */
  lazyCheckpointMs?: number;
  /**
   * The partitions this instance applies, when several processes share the work in groups of their
   * own (a rebuild); the others are paused as soon as they are handed over. Default: all.
   */
  owns?(topic: string, partition: number): boolean;
  /**
   * Attempts for an error known to be neither transient nor deterministic (a bug, perhaps), before the
   * record is dead-lettered.
   */
  maxAttempts?: number;
  retryBackoffMs?: { initial: number; max: number };
  sessionTimeoutMs?: number;
  /**
   * A rebuild's end, per `topic/partition` (see partitionKey): records at or after it are left in the
   * log and the partition is paused once it gets there.
   */
  until?: ReadonlyMap<string, bigint>;
}

/**
 * Applies the records of some topics to a service's Postgres projection, exactly once.
 *
 * The batches of the partitions one fetch brought are applied together: one transaction locks their
 * checkpoint rows, skips records below them, validates and applies the rest, writes the facts they
 * produce to the outbox, and moves the checkpoints; then it commits. When that shared transaction
 * fails, each partition's chunk is applied in a transaction of its own. A failure the record's content
 * caused (isDeterministicError) is known by the record whose handler raised it, or found by applying
 * the chunk once more record by record; that record is dead-lettered and the rest applied in the next
 * transaction, without a backoff, so the records behind it wait a few transactions at most. Transient
 * failures are retried with backoff for as long as they last; other failures one record at a time, a
 * few times each. Records of different partitions never depend on each other (a partition is a key's
 * total order), so applying them together is one of the orders in which separate transactions could
 * have committed.
 *
 * A chunk with no record the consumer applies (another service's requests) is read past without a
 * transaction; its checkpoint is stored with the partition's next transaction or within
 * a second. Kafka's group offsets are committed afterwards and only as a hint: on assignment
 * the consumer seeks to the Postgres checkpoint, which is the truth.
 *
 * A chunk led by a record worth a transaction of its own (ChunkHandler.worthAlone), and in a live
 * consumer any chunk of APART_RECORDS records or more (a workspace's flood), is applied apart:
 * its partition is paused and its batch handed back to kafkajs, which fetches for no partition until
 * every batch of a fetch is handed back, and its transaction runs beside the others; once it commits,
 * the partition is read on from after the chunk. The partition's own later records wait for it, in
 * order; other partitions' records are fetched, applied and committed meanwhile.
 *
 * This class wires the parts, each in a file of its own: the checkpoints and their fence
 * (CheckpointStore), one transaction of records (TransactionRunner), which chunks share one
 * (TransactionScheduler), what follows a failed one (FailureRecovery, DeadLetterWriter), and what the
 * consumer shows of itself (ConsumerTelemetry).
 */
export class ConsumerRuntime {
  private readonly supervised: SupervisedConsumer;
  private readonly checkpoints: CheckpointStore;
  private readonly telemetry: ConsumerTelemetry;
  private readonly transactions: TransactionRunner;
  private readonly scheduler: TransactionScheduler;
  private readonly recovery: FailureRecovery;
  /** Chunks being applied apart (see applyApart), until their partition reads on. */
  private readonly apart = new Set<Promise<void>>();
  /** Undoes shortenFetchesWhile: set while the consumer runs. */
  private unshorten: (() => void) | undefined;
  /** Seeks to the stored checkpoints under way (one per group join), their partitions held meanwhile. */
  private seeking = 0;
  private running = false;
  /** When kafkajs began the fetch whose batches are being handled (FETCH_START). */
  private fetchStartedAt = 0;

  constructor(private readonly options: ConsumerRuntimeOptions) {
    this.checkpoints = new CheckpointStore(options.name, options.dataSource);
    this.telemetry = new ConsumerTelemetry(options.name, options.metrics);
    this.transactions = new TransactionRunner(
      options,
      this.checkpoints,
      new DeadLetterWriter(options),
      this.telemetry,
      (topic, partition, next, offsetInHand) => this.rewind(topic, partition, next, offsetInHand),
    );
    this.scheduler = new TransactionScheduler(options, this.transactions, this.checkpoints, this.telemetry);
    this.recovery = new FailureRecovery(options, this.transactions, this.telemetry, () => this.running);
    this.supervised = new SupervisedConsumer({
      logger: options.logger,
      create: () =>
        options.kafka.consumer({
          groupId: options.groupId ?? options.name,
          sessionTimeout: options.sessionTimeoutMs ?? 30000,
          heartbeatInterval: 3000,
          allowAutoTopicCreation: false,
          ...fetchSettings(options.fetch, this.scheduler.maxPerTransaction),
          retry: { retries: 20, initialRetryTime: 300, maxRetryTime: 5000 },
        }),
      run: (consumer) => this.run(consumer),
    });
  }

  get stats(): ConsumerStats {
    return this.telemetry.stats;
  }

  get isReady(): boolean {
    return this.running && this.telemetry.assigned;
  }

  /** See ConsumerTelemetry.stalledMs. */
  stalledMs(now = Date.now()): number {
    return this.telemetry.stalledMs(now);
  }

  async start(): Promise<void> {
    this.running = true;
    this.scheduler.startLazyCheckpoints();
    // While a chunk is applied apart, or an assignment waits for its seek, partitions are paused: the
    // fetch in flight must not hold their next records for a whole long poll once they resume.
    this.unshorten ??= shortenFetchesWhile(
      this.options.groupId ?? this.options.name,
      () => this.apart.size > 0 || this.seeking > 0,
    );
    try {
      await this.supervised.start();
    } catch (error) {
      this.running = false;
      this.scheduler.stopLazyCheckpoints();
      this.unshorten?.();
      this.unshorten = undefined;
      throw error;
    }
  }

  /**
   * Stops fetching, lets the transaction in hand finish (or roll back), leaves the group, and stores
   * the checkpoints of what was only read past.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.scheduler.stopLazyCheckpoints();
    await this.supervised.stop();
    this.telemetry.stopped();
    await Promise.all(this.apart);
    this.unshorten?.();
    this.unshorten = undefined;
    await this.scheduler.settled();
    if (this.checkpoints.hasReadPast) {
      await this.transactions.run([], this.checkpoints.readPastRuns()).catch((error: unknown) => {
        // Nothing is lost: the records are read past again after a restart.
        this.options.logger.warn({ err: error }, 'could not store the checkpoints of records read past');
      });
    }
  }

  /** The kafkajs consumer running now: a new one after kafkajs gave up on the last. */
  private get consumer(): Consumer {
    return this.supervised.consumer;
  }

  private async run(consumer: Consumer): Promise<void> {
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      this.telemetry.joined(event.payload.memberAssignment);
      // Seeking to the checkpoints reads again what was read past without storing its checkpoint.
      this.checkpoints.forgetReadPast();
      // Nothing of the assignment is fetched before the seek: a fetch from the group's offsets first
      // would read its records, and read them again from the checkpoint once the seek lands.
      const held = holdUnpaused(consumer, event.payload.memberAssignment);
      this.seeking += 1;
      this.seekToCheckpoints(event.payload.memberAssignment)
        .catch((error: unknown) => {
          this.options.logger.error({ err: error }, 'could not seek to the stored checkpoints');
        })
        .finally(() => {
          this.seeking -= 1;
          if (held.length > 0) consumer.resume(held);
        });
    });
    consumer.on(consumer.events.FETCH_START, () => {
      this.fetchStartedAt = Date.now();
    });
    consumer.on(consumer.events.CRASH, (event) => {
      this.telemetry.crashed();
      this.options.logger.error(
        { err: event.payload.error, restart: event.payload.restart },
        'consumer crashed',
      );
    });
    await consumer.connect();
    for (const topic of this.options.topics) await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      // The group's offsets are only a hint (the checkpoints are the truth), for Kafka's own tools.
      autoCommitInterval: 5000,
      eachBatchAutoResolve: false,
      // Every partition's batch of a fetch is handed over at once, so that they share a transaction.
      partitionsConsumedConcurrently: 64,
      eachBatch: (payload) => this.eachBatch(payload),
    });
  }

  private async seekToCheckpoints(assignment: Record<string, number[]>): Promise<void> {
    const admin = this.options.kafka.admin();
    await admin.connect();
    try {
      for (const [topic, partitions] of Object.entries(assignment)) {
        if (partitions.length === 0) continue;
        const stored = await this.checkpoints.storedOffsets(topic);
        const watermarks = await admin.fetchTopicOffsets(topic);
        for (const partition of partitions) {
          const low = watermarks.find((mark) => mark.partition === partition)?.low ?? '0';
          // No checkpoint means nothing applied yet: start at the beginning whatever the group says.
          const offset = stored.get(partition) ?? low;
          this.consumer.seek({ topic, partition, offset });
        }
      }
    } finally {
      await admin.disconnect();
    }
  }

  /** Reads a partition again from `next`, its stored checkpoint. */
  private rewind(topic: string, partition: number, next: bigint, offsetInHand: string): void {
    this.options.logger.warn(
      { topic, partition, checkpoint: String(next), offset: offsetInHand },
      'the stored checkpoint is behind the records in hand; reading the partition again from it',
    );
    this.checkpoints.rewound(topic, partition, next);
    this.consumer.seek({ topic, partition, offset: String(next) });
  }

  private async eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale, commitOffsetsIfNecessary } = payload;
    if (this.options.owns && !this.options.owns(batch.topic, batch.partition)) {
      payload.pause();
      return;
    }
    const until = this.options.until?.get(partitionKey(batch.topic, batch.partition));
    const messages =
      until === undefined
        ? batch.messages
        : batch.messages.filter((message) => BigInt(message.offset) < until);
    if (until !== undefined && messages.length < batch.messages.length) payload.pause();
    const first = batch.messages[0];
    if (first) this.telemetry.reportLag(batch.topic, batch.partition, batch.highWatermark, first.offset);
    const active = (): boolean => this.running && isRunning() && !isStale();
    const { maxPerTransaction } = this.scheduler;
    for (let start = 0; start < messages.length;) {
      if (!active()) return;
      if (start > 0 && this.fetchSpent()) break;
      const end = Math.min(start + maxPerTransaction, messages.length);
      const alone = this.aloneFrom(messages, start, end);
      if (alone === start || (alone === end && this.large(messages, start, end))) {
        this.applyApart(payload, messages.slice(start, end), active);
        await commitOffsetsIfNecessary();
        return;
      }
      const chunk = messages.slice(start, alone);
      start = alone;
      const member: Member = {
        topic: batch.topic,
        partition: batch.partition,
        messages: chunk,
        reject: new Map(),
      };
      let outcome: Outcome;
      try {
        const shared = await this.scheduler.submit(member, active);
        outcome =
          shared.kind === 'fallback'
            ? await this.recovery.applyAlone(member, shared.error, heartbeat, active)
            : shared;
      } catch (error) {
        if (!(error instanceof CheckpointBehindError)) throw error;
        this.rewind(batch.topic, batch.partition, error.next, chunk[0]!.offset);
        return;
      }
      if (outcome.kind === 'stopped') return;
      if (outcome.wroteOutbox) this.options.onOutboxWritten?.();
      const next = (BigInt(chunk[chunk.length - 1]!.offset) + 1n).toString();
      this.telemetry.reportLag(batch.topic, batch.partition, batch.highWatermark, next);
      resolveOffset(chunk[chunk.length - 1]!.offset);
      await heartbeat();
    }
    await commitOffsetsIfNecessary();
    await this.paceFetches();
  }

  /**
   * Whether the fetch whose batches are being handled has had its share of time: kafkajs begins the
   * next fetch only once every batch of this one is handled, so a partition with a long backlog (one
   * workspace's flood) would hold every other partition's new records back until its whole batch is
   * applied. Past the share a batch stops after the chunk in hand; what it did not apply is fetched
   * again with the next fetch, beside what the other partitions have by then. A rebuild, which has the
   * machine to itself and no one waiting, applies whole batches.
   */
  private fetchSpent(): boolean {
    return this.options.until === undefined && Date.now() - this.fetchStartedAt >= FETCH_SHARE_MS;
  }

  /**
   * Holds the batch (and so the next fetch, which kafkajs begins once every batch of this one is
   * handled) until `fetch.minIntervalMs` after this fetch began: records gather meanwhile.
   */
  private async paceFetches(): Promise<void> {
    const interval = this.options.fetch?.minIntervalMs ?? 0;
    const wait = this.fetchStartedAt + interval - Date.now();
    if (interval > 0 && wait > 0 && this.running) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /**
   * Whether `messages[start, end)` holds APART_RECORDS records or more that the consumer applies (known
   * from their type headers): a live consumer applies such a chunk apart (see applyApart), so that
   * one partition's backlog, each of its transactions taking hundreds of milliseconds, holds back
   * neither the next fetch nor the other partitions' few records, which commit beside it.
   */
  private large(messages: KafkaMessage[], start: number, end: number): boolean {
    const { accepts, until } = this.options;
    if (until !== undefined || end - start < APART_RECORDS) return false;
    let applied = 0;
    for (let index = start; index < end; index += 1) {
      const type = headerText(messages[index]!.headers, 'ce_type');
      if (type === undefined || !accepts || accepts(type)) applied += 1;
    }
    return applied >= APART_RECORDS;
  }

  /**
   * Where in `messages[start, end)` the first record worth a transaction of its own is (`end` when
   * none is): known from its type header. A rebuild applies every partition to its end at full speed
   * and pauses each there itself, so it applies such records in line.
   */
  private aloneFrom(messages: KafkaMessage[], start: number, end: number): number {
    const { chunk, accepts, until } = this.options;
    if (!chunk?.worthAlone || until !== undefined) return end;
    for (let index = start; index < end; index += 1) {
      const type = headerText(messages[index]!.headers, 'ce_type');
      if (type !== undefined && (!accepts || accepts(type)) && chunk.worthAlone({ type })) return index;
    }
    return end;
  }

  /**
   * Applies the chunk (led by a record worth a transaction of its own) apart from the fetch it came
   * with: its partition is paused and the batch handed back, so kafkajs fetches the other partitions
   * while it is applied. Once its transaction committed the partition is read on from after the chunk;
   * when it was not applied (the consumer stopped, the partition was sought elsewhere) from where
   * kafkajs stands, which is before it.
   */
  private applyApart(payload: EachBatchPayload, messages: KafkaMessage[], active: () => boolean): void {
    const { batch } = payload;
    const member: Member = { topic: batch.topic, partition: batch.partition, messages, reject: new Map() };
    const resume = payload.pause();
    // kafkajs heartbeats on its own while it fetches; a rebalance is its business, not this chunk's.
    const heartbeat = () => payload.heartbeat().catch(() => undefined);
    const applying = this.applyAlone(member, batch.highWatermark, heartbeat, active)
      .catch((error: unknown) => {
        // Not applied: the partition is read again from before the chunk once it resumes.
        this.options.logger.error(
          { err: error, topic: batch.topic, partition: batch.partition, offset: messages[0]!.offset },
          'could not apply a chunk apart; reading it again',
        );
      })
      .finally(() => {
        this.apart.delete(applying);
        resume();
      });
    this.apart.add(applying);
  }

  private async applyAlone(
    member: Member,
    highWatermark: string,
    heartbeat: () => Promise<void>,
    active: () => boolean,
  ): Promise<void> {
    const { topic, partition, messages } = member;
    try {
      const alone = await this.scheduler.submitAlone(member, active);
      const outcome =
        alone.kind === 'fallback'
          ? await this.recovery.applyAlone(member, alone.error, heartbeat, active)
          : alone;
      if (outcome.kind === 'stopped') return;
      if (outcome.wroteOutbox) this.options.onOutboxWritten?.();
      const next = (BigInt(messages[messages.length - 1]!.offset) + 1n).toString();
      this.telemetry.reportLag(topic, partition, highWatermark, next);
      this.readOnFrom(topic, partition, next);
    } catch (error) {
      if (!(error instanceof CheckpointBehindError)) throw error;
      if (this.running) this.rewind(topic, partition, error.next, messages[0]!.offset);
    }
  }

  /**
   * Seeks past a chunk applied apart. A consumer that stopped, or was replaced and has not joined yet,
   * seeks to the stored checkpoints when it joins, which are past the chunk too.
   */
  private readOnFrom(topic: string, partition: number, offset: string): void {
    if (!this.running) return;
    try {
      this.consumer.seek({ topic, partition, offset });
    } catch (error) {
      this.options.logger.debug({ err: error, topic, partition, offset }, 'could not seek past a chunk');
    }
  }
}

/**
 * Pauses the partitions of `assignment` that are not paused already (a chunk applied apart keeps its own
 * pause), and returns them: what the caller resumes.
 */
function holdUnpaused(consumer: Consumer, assignment: Record<string, number[]>): TopicPartitions[] {
  const paused = new Set(
    consumer
      .paused()
      .flatMap(({ topic, partitions }) => partitions.map((partition) => partitionKey(topic, partition))),
  );
  const held = Object.entries(assignment)
    .map(([topic, partitions]) => ({
      topic,
      partitions: partitions.filter((partition) => !paused.has(partitionKey(topic, partition))),
    }))
    .filter(({ partitions }) => partitions.length > 0);
  if (held.length > 0) consumer.pause(held);
  return held;
}
