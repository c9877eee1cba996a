import {
  DEAD_LETTER_TYPE,
  RecordDecodeError,
  TOPICS,
  createEnvelope,
  deterministicId,
  type DecodedRecord,
  type Envelope,
  type RecordTypeRegistry,
} from '@cms/contracts';
import type { Consumer, EachBatchPayload, IHeaders, Kafka, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import type { Registry, RegistryContentType } from 'prom-client';
import type { DataSource, EntityManager } from 'typeorm';

import { appendToOutbox, envelopeRecord, type OutboxRecord } from '../outbox/outbox';
import { DEAD_LETTER_DETAIL_CHARS, DEAD_LETTER_VALUE_BYTES, storableText } from '../records/record-bounds';
import { kafkaMetrics, type KafkaMetrics } from '../telemetry/kafka-metrics';
import { inRecordSpan, traceIdOf } from '../telemetry/trace-headers';
import { isDeterministicError, isTransientError, PoisonRecordError } from './errors';
import { SupervisedConsumer } from './supervised-consumer';

export interface RecordContext {
  /** The transaction the record is applied in, together with the checkpoint. */
  manager: EntityManager;
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  /**
   * The record is below this projection's replay horizon: an earlier life of the projection already
   * published its facts and did its side effects. `emit` drops what it is given; handlers that create
   * side-effect jobs (deliveries, timers) skip them.
   */
  replaying: boolean;
  /** Publishes a record through the outbox, atomically with everything else in this transaction. */
  emit(topic: string, envelope: Envelope, key?: string | null): void;
}

/** A record handed to a ChunkHandler with the records around it. */
export interface ChunkRecord {
  record: DecodedRecord;
  context: RecordContext;
  /** Runs `work` in the record's span, as `handle` is run, so what it emits continues the record's trace. */
  inSpan<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * Applies consecutive records of a partition together, in the transaction of their chunk: what it
 * leaves behind (rows, emitted records and their order, refusals) is what `handle` applying them one
 * after the other leaves. Records it does not take go to `handle` in their place in the partition.
 */
export interface ChunkHandler {
  takes(record: DecodedRecord): boolean;
  /**
   * Whether a record it takes goes through the chunk even as the only record in hand (a record that
   * holds many requests); otherwise a lone record is applied on its own.
   */
  worthAlone?(record: DecodedRecord): boolean;
  apply(records: ChunkRecord[], manager: EntityManager): Promise<void>;
}

export interface RejectedRecord {
  /** The decoded record, or null when it could not even be decoded. */
  record: DecodedRecord | null;
  raw: KafkaMessage;
  reason: string;
  detail: string;
  /** Also in the log line, so an operator can find this rejection from the client's error id. */
  errorId: string;
}

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
   * When the broker answers a fetch: once `minBytes` are there, or `maxWaitMs` after it was asked.
   * Default 1 byte, 100 ms: at once. A consumer whose records are mostly another service's can let
   * them gather (GATHERING_FETCH), for far fewer fetches under load at a few ms of delay.
   */
  fetch?: { minBytes: number; maxWaitMs: number };
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
 * For a consumer that sees every request but applies few (the gateway's and webhook-dispatch's
 * requests consumers, webhook-dispatch's facts consumer): under load a fetch waits for 64 KB of
 * records instead of returning with the one or two that came meanwhile; idle, it answers within
 * 20 ms, which is all a request it does apply waits longer.
 */
export const GATHERING_FETCH = { minBytes: 64 * 1024, maxWaitMs: 20 } as const;

/** The key of a partition in `until` maps. */
export function partitionKey(topic: string, partition: number): string {
  return `${topic}/${partition}`;
}

type Outcome = { kind: 'applied'; wroteOutbox: boolean } | { kind: 'stopped' };

/** The records of one partition that a transaction applies (or dead-letters, those in `reject`). */
interface Member {
  topic: string;
  partition: number;
  messages: KafkaMessage[];
  /** Offsets to dead-letter instead of applying, each with the failure it caused. */
  reject: ReadonlyMap<string, unknown>;
  /**
   * Every record goes to `handle`, none to the chunk handler, so that a failure is known by the record
   * whose handler raised it.
   */
  locate?: boolean;
  /**
   * The records in `reject` are dead-lettered with their `dead_letters` row only, without the
   * dead-letter record and the answer (onRejected): for when writing those failed as well.
   */
  bare?: boolean;
}

/** The shared transaction failed with `error`: each chunk is applied on its own, which finds out why. */
interface Fallback {
  kind: 'fallback';
  error: unknown;
}

/** A partition's chunk waiting for a transaction shared with the other partitions of its fetch. */
interface Submitted {
  member: Member;
  active(): boolean;
  resolve(result: Outcome | Fallback): void;
}

/** Where the records of a partition stand, for how long they have waited (see stalledMs). */
interface Progress {
  position: bigint;
  highWatermark: bigint;
  /** Since when records have waited at `position`. */
  since: number;
}

/** The record whose handler raised an error. */
interface Culprit {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * Records `[from, to)` of a partition, none of which this consumer applies, read past without a
 * transaction: the checkpoint there is stored with the partition's next transaction, or at the latest
 * after `lazyCheckpointMs`.
 */
interface SkippedRun {
  topic: string;
  partition: number;
  from: bigint;
  to: bigint;
  since: number;
}

/** What the members of one transaction share while their records are applied in turn. */
interface TransactionWork {
  manager: EntityManager;
  /** The facts to append to the outbox, in order. */
  pending: OutboxRecord[];
  /** Debug lines of the records applied, written once the transaction commits. */
  lines: Array<Record<string, unknown>>;
  chunk: ChunkHandler | undefined;
  /** More than one record in hand: the chunk handler takes every record it can. */
  several: boolean;
  /** Records the chunk handler has taken and not yet applied. */
  run: ChunkRecord[];
}

/** A partition whose stored checkpoint turned out to be behind the records read past there. */
interface Rewind {
  topic: string;
  partition: number;
  next: bigint;
}

/**
 * The stored checkpoint is below the first record in hand: records between them were never applied
 * here, or their commit was lost (Postgres crashed with commits not yet flushed, a failover to a replica
 * that lagged). The partition is read again from the checkpoint rather than skipping them.
 */
class CheckpointBehindError extends Error {
  constructor(readonly next: bigint) {
    super(`the stored checkpoint ${next} is below the records in hand`);
    this.name = 'CheckpointBehindError';
  }
}

function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  if (value === undefined) return undefined;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

/** What a log line about one record carries, from its headers when it could not be decoded. */
function recordFields(
  topic: string,
  partition: number,
  message: KafkaMessage,
  record?: DecodedRecord | null,
): Record<string, string | number | undefined> {
  const traceId = traceIdOf(message.headers);
  return {
    topic,
    partition,
    offset: message.offset,
    correlation_id: record?.correlationid ?? headerText(message.headers, 'correlation_id'),
    record_type: record?.type ?? headerText(message.headers, 'ce_type'),
    // Absent rather than undefined: a logger that adds the active span's trace id must keep it.
    ...(traceId !== undefined ? { trace_id: traceId } : {}),
  };
}

function errorText(error: unknown): string {
  if (error instanceof RecordDecodeError) return [error.message, ...error.details].join('; ');
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Text of the record's or the error's, for a dead letter: storable (see storableText), at most `chars`. */
function deadLetterText(text: string, chars: number): string {
  const clean = storableText(text);
  return clean.length > chars ? `${clean.slice(0, chars)}…` : clean;
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
 */
export class ConsumerRuntime {
  private readonly supervised: SupervisedConsumer;
  private readonly maxPerTransaction: number;
  private readonly transactionsConcurrently: number;
  private readonly lazyCheckpointMs: number;
  private readonly maxAttempts: number;
  private readonly backoff: { initial: number; max: number };
  private readonly knownCheckpointRows = new Set<string>();
  private running = false;
  private assigned = false;
  private applied = 0;
  private deadLettered = 0;
  private lastError: string | undefined;
  private readonly metrics: KafkaMetrics | undefined;
  /** Partitions this consumer reports a lag for, so that a revoked one stops being reported. */
  private readonly lagReported = new Set<string>();
  /**
   * Per partition, the checkpoint it was last read again from: when the log itself has no records
   * there (retention, compaction), the next records in hand are above it once more, and that is a gap
   * in the log, not lost work.
   */
  private readonly rewoundTo = new Map<string, bigint>();
  /** Chunks waiting for a shared transaction, in the order they came. */
  private queue: Submitted[] = [];
  private roundsRunning = 0;
  private drainScheduled = false;
  /** Per partition, what was read past without a transaction (see SkippedRun). */
  private readonly skipped = new Map<string, SkippedRun>();
  private lazyFlushRequested = false;
  private lazyTimer: NodeJS.Timeout | undefined;
  private readonly roundsSettled = new Set<Promise<void>>();
  /** The record whose handler raised each error, for as long as the error is in hand. */
  private readonly culprits = new WeakMap<object, Culprit>();
  /** Per partition read, where its records stand (see stalledMs). */
  private readonly progress = new Map<string, Progress>();

  constructor(private readonly options: ConsumerRuntimeOptions) {
    this.maxPerTransaction = options.maxRecordsPerTransaction ?? 500;
    this.transactionsConcurrently = Math.max(1, options.transactionsConcurrently ?? 1);
    this.lazyCheckpointMs = options.lazyCheckpointMs ?? 1000;
    this.supervised = new SupervisedConsumer({
      logger: options.logger,
      create: () =>
        options.kafka.consumer({
          groupId: options.groupId ?? options.name,
          sessionTimeout: options.sessionTimeoutMs ?? 30000,
          heartbeatInterval: 3000,
          allowAutoTopicCreation: false,
          minBytes: options.fetch?.minBytes ?? 1,
          maxWaitTimeInMs: options.fetch?.maxWaitMs ?? 100,
          // A fetch brings at least a transaction's worth of records of a partition (about 1 KB each).
          maxBytesPerPartition: Math.max(1_048_576, this.maxPerTransaction * 1024),
          retry: { retries: 20, initialRetryTime: 300, maxRetryTime: 5000 },
        }),
      run: (consumer) => this.run(consumer),
    });
    this.maxAttempts = options.maxAttempts ?? 3;
    this.backoff = options.retryBackoffMs ?? { initial: 100, max: 5000 };
    this.metrics = options.metrics ? kafkaMetrics(options.metrics) : undefined;
    this.metrics?.addConsumerStallReader(options.name, () => this.stalledMs());
  }

  get stats(): { applied: number; deadLettered: number; assigned: boolean; lastError: string | undefined } {
    return {
      applied: this.applied,
      deadLettered: this.deadLettered,
      assigned: this.assigned,
      lastError: this.lastError,
    };
  }

  get isReady(): boolean {
    return this.running && this.assigned;
  }

  /**
   * How long, in ms, the partition waited for the longest has had records waiting (lag above 0) with
   * its position unchanged; 0 when every partition moved or has nothing to read. A partition stuck on
   * a record (retrying a transient failure) or a consumer that stopped fetching shows here, while a
   * consumer that is behind but moving does not.
   */
  stalledMs(now = Date.now()): number {
    let longest = 0;
    for (const { position, highWatermark, since } of this.progress.values()) {
      if (highWatermark > position) longest = Math.max(longest, now - since);
    }
    return longest;
  }

  async start(): Promise<void> {
    this.running = true;
    this.lazyTimer = setInterval(() => this.requestLazyFlush(), Math.max(10, this.lazyCheckpointMs / 2));
    this.lazyTimer.unref();
    try {
      await this.supervised.start();
    } catch (error) {
      this.running = false;
      clearInterval(this.lazyTimer);
      throw error;
    }
  }

  /** The kafkajs consumer running now: a new one after kafkajs gave up on the last. */
  private get consumer(): Consumer {
    return this.supervised.consumer;
  }

  private async run(consumer: Consumer): Promise<void> {
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      this.assigned = true;
      this.forgetLag(event.payload.memberAssignment);
      // Seeking to the checkpoints reads again what was read past without storing its checkpoint.
      this.skipped.clear();
      this.seekToCheckpoints(event.payload.memberAssignment).catch((error: unknown) => {
        this.options.logger.error({ err: error }, 'could not seek to the stored checkpoints');
      });
    });
    consumer.on(consumer.events.CRASH, (event) => {
      this.assigned = false;
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

  /**
   * Stops fetching, lets the transaction in hand finish (or roll back), leaves the group, and stores
   * the checkpoints of what was only read past.
   */
  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.lazyTimer);
    await this.supervised.stop();
    this.assigned = false;
    this.forgetLag({});
    this.progress.clear();
    await Promise.all(this.roundsSettled);
    if (this.skipped.size > 0) {
      await this.storeSkipped().catch((error: unknown) => {
        // Nothing is lost: the records are read past again after a restart.
        this.options.logger.warn({ err: error }, 'could not store the checkpoints of records read past');
      });
    }
  }

  /**
   * Sets `cms_consumer_lag` for a partition: records from `position` (the next to apply) to its end;
   * and notes when its position last moved.
   */
  private reportLag(topic: string, partition: number, highWatermark: string, position: string): void {
    const key = partitionKey(topic, partition);
    const at = BigInt(position);
    const before = this.progress.get(key);
    // Records waiting at a position reached before start waiting from now, not from when it was reached.
    const waitedBefore = before !== undefined && before.position === at && before.highWatermark > at;
    this.progress.set(key, {
      position: at,
      highWatermark: BigInt(highWatermark),
      since: waitedBefore ? before.since : Date.now(),
    });
    if (!this.metrics) return;
    const lag = BigInt(highWatermark) - BigInt(position);
    this.metrics.consumerLag.set(
      { consumer: this.options.name, topic, partition: String(partition) },
      Number(lag > 0n ? lag : 0n),
    );
    this.lagReported.add(partitionKey(topic, partition));
  }

  /** Stops reporting a lag for the partitions outside `assignment`, which another member now reads. */
  private forgetLag(assignment: Record<string, number[]>): void {
    for (const key of this.progress.keys()) {
      const at = key.lastIndexOf('/');
      if (!assignment[key.slice(0, at)]?.includes(Number(key.slice(at + 1)))) this.progress.delete(key);
    }
    if (!this.metrics) return;
    for (const key of this.lagReported) {
      const at = key.lastIndexOf('/');
      const topic = key.slice(0, at);
      const partition = Number(key.slice(at + 1));
      if (assignment[topic]?.includes(partition)) continue;
      this.metrics.consumerLag.remove({ consumer: this.options.name, topic, partition: String(partition) });
      this.lagReported.delete(key);
    }
  }

  private async seekToCheckpoints(assignment: Record<string, number[]>): Promise<void> {
    const admin = this.options.kafka.admin();
    await admin.connect();
    try {
      for (const [topic, partitions] of Object.entries(assignment)) {
        if (partitions.length === 0) continue;
        const rows: Array<{ partition: number; next_offset: string }> = await this.options.dataSource.query(
          'SELECT partition, next_offset::text AS next_offset FROM consumer_checkpoints WHERE consumer = $1 AND topic = $2',
          [this.options.name, topic],
        );
        const stored = new Map(rows.map((row) => [row.partition, row.next_offset]));
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
    const key = partitionKey(topic, partition);
    this.rewoundTo.set(key, next);
    this.skipped.delete(key);
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
    if (first) this.reportLag(batch.topic, batch.partition, batch.highWatermark, first.offset);
    const active = (): boolean => this.running && isRunning() && !isStale();
    for (let start = 0; start < messages.length; start += this.maxPerTransaction) {
      if (!active()) return;
      const chunk = messages.slice(start, start + this.maxPerTransaction);
      const member: Member = {
        topic: batch.topic,
        partition: batch.partition,
        messages: chunk,
        reject: new Map(),
      };
      let outcome: Outcome;
      try {
        const shared = await this.submit(member, active);
        outcome =
          shared.kind === 'fallback' ? await this.applyAlone(member, shared, heartbeat, active) : shared;
      } catch (error) {
        if (!(error instanceof CheckpointBehindError)) throw error;
        this.rewind(batch.topic, batch.partition, error.next, chunk[0]!.offset);
        return;
      }
      if (outcome.kind === 'stopped') return;
      if (outcome.wroteOutbox) this.options.onOutboxWritten?.();
      const next = (BigInt(chunk[chunk.length - 1]!.offset) + 1n).toString();
      this.reportLag(batch.topic, batch.partition, batch.highWatermark, next);
      resolveOffset(chunk[chunk.length - 1]!.offset);
      await heartbeat();
    }
    await commitOffsetsIfNecessary();
  }

  /** Hands a chunk to the next shared transaction. */
  private submit(member: Member, active: () => boolean): Promise<Outcome | Fallback> {
    return new Promise((resolve) => {
      this.queue.push({ member, active, resolve });
      this.scheduleDrain();
    });
  }

  /** The partitions of a fetch are handed over within one turn of the event loop: wait for all of them. */
  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(() => {
      this.drainScheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    while (
      this.roundsRunning < this.transactionsConcurrently &&
      (this.queue.length > 0 || this.lazyFlushRequested)
    ) {
      const taken: Submitted[] = [];
      let records = 0;
      while (this.queue.length > 0) {
        const size = this.queue[0]!.member.messages.length;
        if (taken.length > 0 && records + size > this.maxPerTransaction) break;
        taken.push(this.queue.shift()!);
        records += size;
      }
      this.roundsRunning += 1;
      const settled = this.round(taken).finally(() => {
        this.roundsRunning -= 1;
        this.roundsSettled.delete(settled);
        if (this.queue.length > 0 || this.lazyFlushRequested) this.scheduleDrain();
      });
      this.roundsSettled.add(settled);
    }
  }

  /** A chunk holds no record this consumer applies: known from the headers, without decoding. */
  private onlyReadsPast(member: Member): boolean {
    const { accepts } = this.options;
    // A rebuild stores every checkpoint it reaches; concurrent transactions could store one too early.
    if (!accepts || this.options.until !== undefined || this.transactionsConcurrently > 1) return false;
    const run = this.skipped.get(partitionKey(member.topic, member.partition));
    // After a gap (a seek, records gone from the log) the chunk goes through a transaction, which
    // compares it with the stored checkpoint.
    if (run && run.to !== BigInt(member.messages[0]!.offset)) return false;
    return member.messages.every((message) => {
      const type = headerText(message.headers, 'ce_type');
      return type !== undefined && !accepts(type);
    });
  }

  private requestLazyFlush(): void {
    if (this.skipped.size === 0 || this.lazyFlushRequested) return;
    const due = Date.now() - this.lazyCheckpointMs;
    if (![...this.skipped.values()].some((run) => run.since <= due)) return;
    this.lazyFlushRequested = true;
    this.scheduleDrain();
  }

  /** One shared transaction for the chunks taken, or none when they only read past. */
  private async round(taken: Submitted[]): Promise<void> {
    const live = taken.filter((item) => {
      if (item.active()) return true;
      item.resolve({ kind: 'stopped' });
      return false;
    });
    const flush = this.lazyFlushRequested;
    this.lazyFlushRequested = false;
    if (!flush && live.every((item) => this.onlyReadsPast(item.member))) {
      for (const item of live) {
        this.readPast(item.member);
        item.resolve({ kind: 'applied', wroteOutbox: false });
      }
      return;
    }
    const members = live.map((item) => item.member);
    const inHand = new Set(members.map((member) => partitionKey(member.topic, member.partition)));
    const extras = [...this.skipped.entries()].filter(([key]) => !inHand.has(key)).map(([, run]) => run);
    if (members.length === 0 && extras.length === 0) return;
    let wroteOutbox: boolean;
    try {
      wroteOutbox = await this.transaction(members, extras);
    } catch (error) {
      if (live.length === 0) {
        // The timer asks again; nothing is lost meanwhile, the records would only be read past again.
        this.options.logger.warn({ err: error }, 'could not store the checkpoints of records read past');
      }
      // Each chunk on its own: a transient failure is retried with backoff, a bad record is found.
      for (const item of live) item.resolve({ kind: 'fallback', error });
      return;
    }
    for (const item of live) item.resolve({ kind: 'applied', wroteOutbox });
  }

  /** Notes a chunk read past without a transaction (see SkippedRun). */
  private readPast(member: Member): void {
    const key = partitionKey(member.topic, member.partition);
    const first = BigInt(member.messages[0]!.offset);
    const to = BigInt(member.messages[member.messages.length - 1]!.offset) + 1n;
    const run = this.skipped.get(key);
    if (run) run.to = to;
    else
      this.skipped.set(key, {
        topic: member.topic,
        partition: member.partition,
        from: first,
        to,
        since: Date.now(),
      });
    this.metrics?.recordsProcessed.inc(
      { consumer: this.options.name, topic: member.topic, result: 'skipped' },
      member.messages.length,
    );
  }

  /** Stores the checkpoints of every partition read past (at stop). */
  private async storeSkipped(): Promise<void> {
    await this.transaction([], [...this.skipped.values()]);
  }

  private culpritOf(error: unknown): Culprit | undefined {
    return typeof error === 'object' && error !== null ? this.culprits.get(error) : undefined;
  }

  /** The record of `member` whose handler raised `error`, if one of its records did. */
  private culpritIn(error: unknown, member: Member): string | undefined {
    const culprit = this.culpritOf(error);
    if (!culprit || culprit.topic !== member.topic || culprit.partition !== member.partition)
      return undefined;
    return member.messages.some((message) => message.offset === culprit.offset) ? culprit.offset : undefined;
  }

  /** A chunk whose shared transaction failed, in a transaction of its own. */
  private async applyAlone(
    member: Member,
    shared: Fallback,
    heartbeat: () => Promise<void>,
    active: () => boolean,
  ): Promise<Outcome> {
    // A record's content made it fail: the chunk's own transaction goes straight to finding that
    // record (the chunk handler's statements name none), rather than failing once more the same way.
    // When a handler named the record and it is another partition's, this chunk is fine as it is.
    const elsewhere =
      this.culpritOf(shared.error) !== undefined && this.culpritIn(shared.error, member) === undefined;
    if (isDeterministicError(shared.error) && !elsewhere) {
      return this.applyRejecting(member, shared.error, heartbeat, active);
    }
    return this.applyWithRetries(member, heartbeat, active);
  }

  private async applyWithRetries(
    member: Member,
    heartbeat: () => Promise<void>,
    active: () => boolean,
  ): Promise<Outcome> {
    try {
      return { kind: 'applied', wroteOutbox: await this.transaction([member]) };
    } catch (error) {
      if (error instanceof CheckpointBehindError) throw error;
      this.lastError = errorText(error);
      if (isDeterministicError(error)) return this.applyRejecting(member, error, heartbeat, active);
      if (member.messages.length === 1 || !isTransientError(error)) {
        // Find the record at fault: apply one record per transaction from here.
        return this.applyOneByOne(member, heartbeat, active);
      }
    }
    const { topic, partition, messages } = member;
    let wait = this.backoff.initial;
    for (;;) {
      if (!active()) return { kind: 'stopped' };
      await this.pause(wait, heartbeat);
      wait = Math.min(wait * 2, this.backoff.max);
      try {
        return { kind: 'applied', wroteOutbox: await this.transaction([member]) };
      } catch (error) {
        if (error instanceof CheckpointBehindError) throw error;
        this.lastError = errorText(error);
        if (isDeterministicError(error)) return this.applyRejecting(member, error, heartbeat, active);
        if (!isTransientError(error)) return this.applyOneByOne(member, heartbeat, active);
        this.options.logger.warn(
          {
            err: error,
            topic,
            partition,
            offset: messages[0]!.offset,
            last_offset: messages[messages.length - 1]!.offset,
          },
          'transient failure; retrying',
        );
      }
    }
  }

  /**
   * A record of the chunk failed in a way no retry cures (see isDeterministicError): it is
   * dead-lettered and the others applied, in one transaction, without waiting. The record is known
   * when its handler raised the error; otherwise (the chunk handler's statements) the chunk is applied
   * once record by record, which names it. Each turn names one more record, so this ends.
   */
  private async applyRejecting(
    member: Member,
    failure: unknown,
    heartbeat: () => Promise<void>,
    active: () => boolean,
  ): Promise<Outcome> {
    const reject = new Map(member.reject);
    let locate = member.locate ?? false;
    let error = failure;
    for (;;) {
      if (!active()) return { kind: 'stopped' };
      const culprit = this.culpritIn(error, member);
      if (culprit !== undefined && !reject.has(culprit)) reject.set(culprit, error);
      else if (!locate) locate = true;
      // Raised after the handlers (writing the outbox, the checkpoints): no record to blame for it.
      else return this.applyOneByOne({ ...member, reject }, heartbeat, active);
      const attempt: Member = { ...member, reject, locate };
      try {
        return { kind: 'applied', wroteOutbox: await this.transaction([attempt]) };
      } catch (next) {
        if (next instanceof CheckpointBehindError) throw next;
        this.lastError = errorText(next);
        if (isTransientError(next)) return this.applyWithRetries(attempt, heartbeat, active);
        if (!isDeterministicError(next)) return this.applyOneByOne(attempt, heartbeat, active);
        error = next;
      }
    }
  }

  private async applyOneByOne(
    member: Member,
    heartbeat: () => Promise<void>,
    active: () => boolean,
  ): Promise<Outcome> {
    const { topic, partition } = member;
    let wroteOutbox = false;
    for (const message of member.messages) {
      let attempts = 0;
      let wait = this.backoff.initial;
      const known = member.reject.has(message.offset);
      let single: Member = {
        topic,
        partition,
        messages: [message],
        reject: known ? new Map([[message.offset, member.reject.get(message.offset)]]) : new Map(),
      };
      for (;;) {
        if (!active()) return { kind: 'stopped' };
        try {
          wroteOutbox = (await this.transaction([single])) || wroteOutbox;
          break;
        } catch (error) {
          if (error instanceof CheckpointBehindError) throw error;
          this.lastError = errorText(error);
          if (!isTransientError(error)) attempts += 1;
          // Errors not known to be deterministic may be a bug that a retry outlives, or not: a few tries.
          const poison = isDeterministicError(error) || attempts >= this.maxAttempts;
          if (poison && single.reject.size === 0) {
            single = { ...single, reject: new Map([[message.offset, error]]) };
            continue;
          }
          if (poison && single.bare !== true) {
            // Dead-lettering it failed too (its answer, its dead-letter record): the row alone then.
            single = { ...single, bare: true };
            continue;
          }
          this.options.logger.warn(
            { err: error, ...recordFields(topic, partition, message), attempts },
            'record failed; retrying',
          );
          await this.pause(wait, heartbeat);
          wait = Math.min(wait * 2, this.backoff.max);
        }
      }
      await heartbeat();
    }
    return { kind: 'applied', wroteOutbox };
  }

  /**
   * One transaction: lock the members' checkpoints, apply what is above them, move them. Records in a
   * member's `reject` are dead-lettered with its `failure` instead of applied. The checkpoints of
   * `extras`, partitions only read past, are stored too. Returns whether anything went to the outbox.
   */
  private async transaction(members: Member[], extras: SkippedRun[] = []): Promise<boolean> {
    const { dataSource } = this.options;
    const pending: OutboxRecord[] = [];
    const lines: Array<Record<string, unknown>> = [];
    const counts = members.map(() => ({ applied: 0, deadLettered: 0 }));
    const rewinds: Rewind[] = [];
    await dataSource.transaction(async (manager) => {
      const partitions = [...members, ...extras];
      const stored = await this.lockCheckpoints(manager, partitions);
      for (const member of members) {
        const key = partitionKey(member.topic, member.partition);
        const { next } = stored.get(key) ?? {};
        const run = this.skipped.get(key);
        const first = BigInt(member.messages[0]!.offset);
        // What was read past before the chunk counts as in hand: the checkpoint stayed where it began.
        const inHandFrom = run && run.to === first ? run.from : first;
        if (next !== undefined && inHandFrom > next && this.rewoundTo.get(key) !== next) {
          throw new CheckpointBehindError(next);
        }
      }
      const updates: Array<{ topic: string; partition: number; next: bigint }> = [];
      for (const run of extras) {
        const { next } = stored.get(partitionKey(run.topic, run.partition)) ?? {};
        if (next !== undefined && next < run.from) rewinds.push({ ...run, next });
        else updates.push({ topic: run.topic, partition: run.partition, next: run.to });
      }
      const total = members.reduce((sum, member) => sum + member.messages.length, 0);
      const chunk = members.every((member) => member.reject.size === 0 && member.locate !== true)
        ? this.options.chunk
        : undefined;
      const work: TransactionWork = { manager, pending, lines, chunk, several: total > 1, run: [] };
      for (const [index, member] of members.entries()) {
        const { next, horizon } = stored.get(partitionKey(member.topic, member.partition)) ?? {};
        await this.applyMember(work, member, next, horizon, counts[index]!);
        const last = member.messages[member.messages.length - 1]!;
        updates.push({ topic: member.topic, partition: member.partition, next: BigInt(last.offset) + 1n });
      }
      await this.flushRun(work);
      await appendToOutbox(manager, pending);
      await this.moveCheckpoints(manager, updates);
    });
    // Only now: a rolled-back transaction takes the checkpoint rows it inserted with it.
    for (const { topic, partition } of [...members, ...extras]) {
      const key = partitionKey(topic, partition);
      this.knownCheckpointRows.add(key);
      this.skipped.delete(key);
    }
    for (const { topic, partition, next } of rewinds) this.rewind(topic, partition, next, 'read past');
    for (const line of lines) this.options.logger.debug(line, 'record applied');
    for (const [index, member] of members.entries()) {
      const { applied, deadLettered } = counts[index]!;
      this.applied += applied;
      this.deadLettered += deadLettered;
      this.committed(member.topic, member.messages.length, applied, deadLettered);
    }
    return pending.length > 0;
  }

  /** Applies one partition's records of a transaction, in order, after those of the members before it. */
  private async applyMember(
    work: TransactionWork,
    member: Member,
    next: bigint | undefined,
    horizon: bigint | undefined,
    counts: { applied: number; deadLettered: number },
  ): Promise<void> {
    const { registry, accepts } = this.options;
    const { manager, pending, lines, chunk } = work;
    const { topic, partition, reject } = member;
    for (const message of member.messages) {
      if (next !== undefined && BigInt(message.offset) < next) continue;
      const replaying = horizon !== undefined && BigInt(message.offset) < horizon;
      const context: RecordContext = {
        manager,
        topic,
        partition,
        offset: message.offset,
        key: message.key?.toString() ?? null,
        replaying,
        emit: (to, envelope, key) => {
          if (!replaying) pending.push(envelopeRecord(to, envelope, key));
        },
      };
      if (reject.has(message.offset)) {
        let record: DecodedRecord | null = null;
        try {
          record = registry.decode(message.value);
        } catch {
          record = null;
        }
        await this.deadLetter(context, message, record, reject.get(message.offset), member.bare === true);
        counts.deadLettered += 1;
        continue;
      }
      const type = headerText(message.headers, 'ce_type');
      if (type !== undefined && accepts && !accepts(type)) continue;
      let record: DecodedRecord;
      try {
        record = registry.decode(message.value);
      } catch (error) {
        if (!(error instanceof RecordDecodeError)) throw error;
        if (error.reason === 'unknown_type' && accepts && !this.acceptsRaw(message)) continue;
        await this.flushRun(work);
        await this.deadLetter(context, message, null, error);
        counts.deadLettered += 1;
        continue;
      }
      if (accepts && !accepts(record.type)) continue;
      counts.applied += 1;
      if (chunk?.takes(record) && (work.several || chunk.worthAlone?.(record) === true)) {
        // Below the replay horizon nothing is emitted that a span's context would go into.
        const inSpan = replaying
          ? <T>(work: () => Promise<T>) => this.outsideSpan(record, context, message, lines, work)
          : <T>(work: () => Promise<T>) => this.inSpan(record, context, message, lines, work);
        work.run.push({ record, context, inSpan });
        continue;
      }
      await this.flushRun(work);
      try {
        await this.inSpan(record, context, message, lines, () => this.options.handle(record, context));
      } catch (error) {
        if (typeof error === 'object' && error !== null) {
          this.culprits.set(error, { topic, partition, offset: message.offset });
        }
        throw error;
      }
    }
  }

  /** The records taken by the chunk handler so far go first: what comes next sees their writes. */
  private async flushRun(work: TransactionWork): Promise<void> {
    if (work.run.length === 0) return;
    const records = work.run;
    work.run = [];
    await work.chunk!.apply(records, work.manager);
  }

  /** Runs `work` (the handler) inside the record's span (see inRecordSpan), noting it for its debug line. */
  private async inSpan<T>(
    record: DecodedRecord,
    context: RecordContext,
    message: KafkaMessage,
    lines: Array<Record<string, unknown>>,
    work: () => Promise<T>,
  ): Promise<T> {
    const { topic, partition } = context;
    const target = { consumer: this.options.name, topic, partition, message, recordType: record.type };
    return inRecordSpan(target, async (traceId) => {
      const result = await work();
      if (this.options.logger.isLevelEnabled('debug')) {
        lines.push({ ...recordFields(topic, partition, message, record), trace_id: traceId });
      }
      return result;
    });
  }

  /** Runs `work` without a span of its own, noting the record for its debug line. */
  private async outsideSpan<T>(
    record: DecodedRecord,
    context: RecordContext,
    message: KafkaMessage,
    lines: Array<Record<string, unknown>>,
    work: () => Promise<T>,
  ): Promise<T> {
    const result = await work();
    if (this.options.logger.isLevelEnabled('debug')) {
      lines.push(recordFields(context.topic, context.partition, message, record));
    }
    return result;
  }

  /** After a commit: what it did to the counters. */
  private committed(topic: string, read: number, applied: number, deadLettered: number): void {
    if (!this.metrics) return;
    const consumer = this.options.name;
    const counter = this.metrics.recordsProcessed;
    counter.inc({ consumer, topic, result: 'applied' }, applied);
    counter.inc({ consumer, topic, result: 'dead_lettered' }, deadLettered);
    counter.inc({ consumer, topic, result: 'skipped' }, read - applied - deadLettered);
  }

  /** For a record whose type is unknown, whether the consumer claims it by its header-less type. */
  private acceptsRaw(message: KafkaMessage): boolean {
    try {
      const parsed = JSON.parse(message.value?.toString('utf8') ?? 'null') as { type?: unknown };
      return typeof parsed.type === 'string' && this.options.accepts!(parsed.type);
    } catch {
      return true;
    }
  }

  /**
   * Locks the checkpoint rows of the partitions, in one order whoever asks (so two transactions never
   * wait for each other), creating the missing ones. Returns each one's checkpoint and replay horizon.
   */
  private async lockCheckpoints(
    manager: EntityManager,
    partitions: Array<{ topic: string; partition: number }>,
  ): Promise<Map<string, { next: bigint | undefined; horizon: bigint | undefined }>> {
    const unknown = partitions.filter(
      ({ topic, partition }) => !this.knownCheckpointRows.has(partitionKey(topic, partition)),
    );
    if (unknown.length > 0) {
      await manager.query(
        `INSERT INTO consumer_checkpoints (consumer, topic, partition, next_offset)
         SELECT $1, u.topic, u.partition, -1 FROM unnest($2::text[], $3::int[]) AS u(topic, partition)
         ON CONFLICT DO NOTHING`,
        [this.options.name, unknown.map((p) => p.topic), unknown.map((p) => p.partition)],
      );
    }
    const rows: Array<{
      topic: string;
      partition: number;
      next_offset: string;
      until_offset: string | null;
    }> = await manager.query(
      `SELECT c.topic, c.partition, c.next_offset::text AS next_offset, h.until_offset::text AS until_offset
           FROM consumer_checkpoints c
           LEFT JOIN replay_horizons h USING (consumer, topic, partition)
          WHERE c.consumer = $1
            AND (c.topic, c.partition) IN (SELECT * FROM unnest($2::text[], $3::int[]))
          ORDER BY c.topic, c.partition
            FOR UPDATE OF c`,
      [this.options.name, partitions.map((p) => p.topic), partitions.map((p) => p.partition)],
    );
    const stored = new Map<string, { next: bigint | undefined; horizon: bigint | undefined }>();
    for (const row of rows) {
      const next = BigInt(row.next_offset);
      stored.set(partitionKey(row.topic, row.partition), {
        next: next < 0n ? undefined : next,
        horizon: row.until_offset ? BigInt(row.until_offset) : undefined,
      });
    }
    return stored;
  }

  private async moveCheckpoints(
    manager: EntityManager,
    updates: Array<{ topic: string; partition: number; next: bigint }>,
  ): Promise<void> {
    if (updates.length === 0) return;
    await manager.query(
      `UPDATE consumer_checkpoints c
          SET next_offset = GREATEST(c.next_offset, u.next), updated_at = now()
         FROM unnest($2::text[], $3::int[], $4::bigint[]) AS u(topic, partition, next)
        WHERE c.consumer = $1 AND c.topic = u.topic AND c.partition = u.partition`,
      [
        this.options.name,
        updates.map((u) => u.topic),
        updates.map((u) => u.partition),
        updates.map((u) => u.next.toString()),
      ],
    );
  }

  /** Dead-letters inside the record's span, so the dead letter and any answer continue its trace. */
  private async deadLetter(
    context: RecordContext,
    message: KafkaMessage,
    record: DecodedRecord | null,
    failure: unknown,
    bare = false,
  ): Promise<void> {
    const { topic, partition } = context;
    const recordType = record?.type ?? headerText(message.headers, 'ce_type');
    const target = { consumer: this.options.name, topic, partition, message, recordType, failed: true };
    await inRecordSpan(target, () => this.writeDeadLetter(context, message, record, failure, bare));
  }

  /** `bare`: the `dead_letters` row only (see Member.bare). */
  private async writeDeadLetter(
    context: RecordContext,
    message: KafkaMessage,
    record: DecodedRecord | null,
    failure: unknown,
    bare: boolean,
  ): Promise<void> {
    const errorId = deterministicId(
      this.options.name,
      context.topic,
      context.partition,
      context.offset,
      'dead-letter',
    );
    const reason =
      failure instanceof RecordDecodeError
        ? failure.reason
        : failure instanceof PoisonRecordError
          ? failure.reason
          : 'handler_failed';
    const detail = deadLetterText(errorText(failure), DEAD_LETTER_DETAIL_CHARS);
    const { topic, partition, offset } = context;
    const key = context.key === null ? null : deadLetterText(context.key, DEAD_LETTER_DETAIL_CHARS);
    const value = message.value ?? Buffer.alloc(0);
    // The dead letter is a record too: it copies the first bytes only, so it stays under the bound.
    const copied = value.subarray(0, DEAD_LETTER_VALUE_BYTES);
    this.options.logger.error(
      {
        ...recordFields(topic, partition, message, record),
        error_id: errorId,
        reason,
        err: failure instanceof Error ? failure : undefined,
        ...(bare ? { bare: true } : {}),
      },
      bare
        ? `record dead-lettered without its dead-letter record or answer, which failed too: ${detail}`
        : `record dead-lettered: ${detail}`,
    );
    await context.manager.query(
      `INSERT INTO dead_letters (consumer, topic, partition, "offset", key, value, reason, detail)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
      [this.options.name, topic, partition, offset, key, message.value, reason, detail],
    );
    if (bare) return;
    context.emit(
      this.options.deadLetterTopic ?? TOPICS.deadLetters,
      createEnvelope({
        type: DEAD_LETTER_TYPE,
        source: this.options.name,
        workspaceid: record?.workspaceid ?? 'unknown',
        id: errorId,
        time: new Date(Number(message.timestamp)).toISOString(),
        ...(record ? { correlationid: record.correlationid, causationid: record.id } : {}),
        data: {
          consumer: this.options.name,
          topic,
          partition,
          offset,
          ...(key !== null ? { key } : {}),
          value: copied.toString('base64'),
          value_bytes: value.length,
          truncated: copied.length < value.length,
          reason,
          detail,
        },
      }),
      key,
    );
    await this.options.onRejected?.({ record, raw: message, reason, detail, errorId }, context);
  }

  private async pause(ms: number, heartbeat: () => Promise<void>): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until && this.running) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, until - Date.now())));
      await heartbeat().catch(() => undefined);
    }
  }
}
