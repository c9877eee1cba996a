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
import { kafkaMetrics, type KafkaMetrics } from '../telemetry/kafka-metrics';
import { inRecordSpan, traceIdOf } from '../telemetry/trace-headers';
import { isTransientError, PoisonRecordError } from './errors';
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
  /** Records applied in one transaction at most. */
  maxRecordsPerTransaction?: number;
  /** Partitions applied at the same time, each in its own transaction; default 1. */
  partitionsConcurrently?: number;
  /**
   * The partitions this instance applies, when several processes share the work in groups of their
   * own (a rebuild); the others are paused as soon as they are handed over. Default: all.
   */
  owns?(topic: string, partition: number): boolean;
  /** Attempts for an error that is not known to be transient, before the record is dead-lettered. */
  maxAttempts?: number;
  retryBackoffMs?: { initial: number; max: number };
  sessionTimeoutMs?: number;
  /**
   * A rebuild's end, per `topic/partition` (see partitionKey): records at or after it are left in the
   * log and the partition is paused once it gets there.
   */
  until?: ReadonlyMap<string, bigint>;
}

/** The key of a partition in `until` maps. */
export function partitionKey(topic: string, partition: number): string {
  return `${topic}/${partition}`;
}

type Outcome = { kind: 'applied'; wroteOutbox: boolean } | { kind: 'stopped' };

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

/**
 * Applies the records of some topics to a service's Postgres projection, exactly once.
 *
 * For each chunk of records: one transaction locks the partition's checkpoint row, skips records below
 * it, validates and applies the rest, writes the facts they produce to the outbox, and moves the
 * checkpoint; then it commits. Kafka's group offsets are committed afterwards and only as a hint: on
 * assignment the consumer seeks to the Postgres checkpoint, which is the truth.
 */
export class ConsumerRuntime {
  private readonly supervised: SupervisedConsumer;
  private readonly maxPerTransaction: number;
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
  /** Per partition, the debug lines of the records applied in its transaction under way, written once it commits. */
  private readonly appliedLines = new Map<string, Array<Record<string, unknown>>>();

  constructor(private readonly options: ConsumerRuntimeOptions) {
    this.supervised = new SupervisedConsumer({
      logger: options.logger,
      create: () =>
        options.kafka.consumer({
          groupId: options.groupId ?? options.name,
          sessionTimeout: options.sessionTimeoutMs ?? 30000,
          heartbeatInterval: 3000,
          allowAutoTopicCreation: false,
          maxWaitTimeInMs: 100,
          // A fetch brings at least a transaction's worth of records of a partition (about 1 KB each).
          maxBytesPerPartition: Math.max(1_048_576, (options.maxRecordsPerTransaction ?? 500) * 1024),
          retry: { retries: 20, initialRetryTime: 300, maxRetryTime: 5000 },
        }),
      run: (consumer) => this.run(consumer),
    });
    this.maxPerTransaction = options.maxRecordsPerTransaction ?? 500;
    this.maxAttempts = options.maxAttempts ?? 3;
    this.backoff = options.retryBackoffMs ?? { initial: 100, max: 5000 };
    this.metrics = options.metrics ? kafkaMetrics(options.metrics) : undefined;
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

  async start(): Promise<void> {
    this.running = true;
    try {
      await this.supervised.start();
    } catch (error) {
      this.running = false;
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
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.partitionsConcurrently ?? 1,
      eachBatch: (payload) => this.eachBatch(payload),
    });
  }

  /** Stops fetching, lets the record in hand finish (or roll back), and leaves the group. */
  async stop(): Promise<void> {
    this.running = false;
    await this.supervised.stop();
    this.assigned = false;
    this.forgetLag({});
  }

  /** Sets `cms_consumer_lag` for a partition: records from `position` (the next to apply) to its end. */
  private reportLag(topic: string, partition: number, highWatermark: string, position: string): void {
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
    for (let start = 0; start < messages.length; start += this.maxPerTransaction) {
      if (!this.running || !isRunning() || isStale()) return;
      const chunk = messages.slice(start, start + this.maxPerTransaction);
      let outcome: Outcome;
      try {
        outcome = await this.applyWithRetries(
          batch.topic,
          batch.partition,
          chunk,
          heartbeat,
          () => this.running && isRunning() && !isStale(),
        );
      } catch (error) {
        if (!(error instanceof CheckpointBehindError)) throw error;
        this.options.logger.warn(
          {
            topic: batch.topic,
            partition: batch.partition,
            checkpoint: String(error.next),
            offset: chunk[0]!.offset,
          },
          'the stored checkpoint is behind the records in hand; reading the partition again from it',
        );
        this.rewoundTo.set(partitionKey(batch.topic, batch.partition), error.next);
        this.consumer.seek({ topic: batch.topic, partition: batch.partition, offset: String(error.next) });
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

  private async applyWithRetries(
    topic: string,
    partition: number,
    chunk: KafkaMessage[],
    heartbeat: () => Promise<void>,
    active: () => boolean,
  ): Promise<Outcome> {
    try {
      return { kind: 'applied', wroteOutbox: await this.transaction(topic, partition, chunk, new Set()) };
    } catch (error) {
      if (error instanceof CheckpointBehindError) throw error;
      this.lastError = errorText(error);
      if (chunk.length === 1 || !isTransientError(error)) {
        // Find the record at fault: apply one record per transaction from here.
        return this.applyOneByOne(topic, partition, chunk, heartbeat, active);
      }
    }
    let wait = this.backoff.initial;
    for (;;) {
      if (!active()) return { kind: 'stopped' };
      await this.pause(wait, heartbeat);
      wait = Math.min(wait * 2, this.backoff.max);
      try {
        return { kind: 'applied', wroteOutbox: await this.transaction(topic, partition, chunk, new Set()) };
      } catch (error) {
        if (error instanceof CheckpointBehindError) throw error;
        this.lastError = errorText(error);
        if (!isTransientError(error)) return this.applyOneByOne(topic, partition, chunk, heartbeat, active);
        this.options.logger.warn(
          {
            err: error,
            topic,
            partition,
            offset: chunk[0]!.offset,
            last_offset: chunk[chunk.length - 1]!.offset,
          },
          'transient failure; retrying',
        );
      }
    }
  }

  private async applyOneByOne(
    topic: string,
    partition: number,
    chunk: KafkaMessage[],
    heartbeat: () => Promise<void>,
    active: () => boolean,
  ): Promise<Outcome> {
    let wroteOutbox = false;
    for (const message of chunk) {
      let attempts = 0;
      let wait = this.backoff.initial;
      for (;;) {
        if (!active()) return { kind: 'stopped' };
        try {
          wroteOutbox = (await this.transaction(topic, partition, [message], new Set())) || wroteOutbox;
          break;
        } catch (error) {
          if (error instanceof CheckpointBehindError) throw error;
          this.lastError = errorText(error);
          if (!isTransientError(error)) attempts += 1;
          const poison = error instanceof PoisonRecordError || attempts >= this.maxAttempts;
          if (poison) {
            wroteOutbox =
              (await this.transaction(topic, partition, [message], new Set([message.offset]), error)) ||
              wroteOutbox;
            break;
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
   * One transaction: lock the checkpoint, apply what is above it, move it. Records in `reject` are
   * dead-lettered with `failure` instead of applied. Returns whether anything went to the outbox.
   */
  private async transaction(
    topic: string,
    partition: number,
    messages: KafkaMessage[],
    reject: Set<string>,
    failure?: unknown,
  ): Promise<boolean> {
    const { dataSource, registry, accepts } = this.options;
    const pending: OutboxRecord[] = [];
    let applied = 0;
    let deadLettered = 0;
    this.appliedLines.set(partitionKey(topic, partition), []);
    await dataSource.transaction(async (manager) => {
      const { next, horizon } = await this.lockCheckpoint(manager, topic, partition);
      const first = BigInt(messages[0]!.offset);
      if (next !== undefined && first > next && this.rewoundTo.get(partitionKey(topic, partition)) !== next) {
        throw new CheckpointBehindError(next);
      }
      const chunk = messages.length > 1 && reject.size === 0 ? this.options.chunk : undefined;
      let run: ChunkRecord[] = [];
      // The records taken so far go first: whatever comes next sees their writes and emits after them.
      const flush = async (): Promise<void> => {
        if (run.length === 0) return;
        const records = run;
        run = [];
        await chunk!.apply(records, manager);
      };
      for (const message of messages) {
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
          await this.deadLetter(context, message, record, failure);
          deadLettered += 1;
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
          await flush();
          await this.deadLetter(context, message, null, error);
          deadLettered += 1;
          continue;
        }
        if (accepts && !accepts(record.type)) continue;
        applied += 1;
        if (chunk?.takes(record)) {
          // Below the replay horizon nothing is emitted that a span's context would go into.
          const inSpan = replaying
            ? <T>(work: () => Promise<T>) => this.outsideSpan(record, context, message, work)
            : <T>(work: () => Promise<T>) => this.inSpan(record, context, message, work);
          run.push({ record, context, inSpan });
          continue;
        }
        await flush();
        await this.inSpan(record, context, message, () => this.options.handle(record, context));
      }
      await flush();
      await appendToOutbox(manager, pending);
      const last = messages[messages.length - 1]!;
      await manager.query(
        'UPDATE consumer_checkpoints SET next_offset = GREATEST(next_offset, $4), updated_at = now() WHERE consumer = $1 AND topic = $2 AND partition = $3',
        [this.options.name, topic, partition, (BigInt(last.offset) + 1n).toString()],
      );
    });
    // Only now: a rolled-back transaction takes the checkpoint row it inserted with it.
    this.knownCheckpointRows.add(partitionKey(topic, partition));
    this.applied += applied;
    this.deadLettered += deadLettered;
    this.committed(topic, partition, messages.length, applied, deadLettered);
    return pending.length > 0;
  }

  /** Runs `work` (the handler) inside the record's span (see inRecordSpan), noting it for its debug line. */
  private async inSpan<T>(
    record: DecodedRecord,
    context: RecordContext,
    message: KafkaMessage,
    work: () => Promise<T>,
  ): Promise<T> {
    const { topic, partition } = context;
    const target = { consumer: this.options.name, topic, partition, message, recordType: record.type };
    return inRecordSpan(target, async (traceId) => {
      const result = await work();
      if (this.options.logger.isLevelEnabled('debug')) {
        this.appliedLines
          .get(partitionKey(topic, partition))
          ?.push({ ...recordFields(topic, partition, message, record), trace_id: traceId });
      }
      return result;
    });
  }

  /** Runs `work` without a span of its own, noting the record for its debug line. */
  private async outsideSpan<T>(
    record: DecodedRecord,
    context: RecordContext,
    message: KafkaMessage,
    work: () => Promise<T>,
  ): Promise<T> {
    const result = await work();
    if (this.options.logger.isLevelEnabled('debug')) {
      this.appliedLines
        .get(partitionKey(context.topic, context.partition))
        ?.push(recordFields(context.topic, context.partition, message, record));
    }
    return result;
  }

  /** After a commit: what it did to the counters, and a debug line per record it applied. */
  private committed(
    topic: string,
    partition: number,
    read: number,
    applied: number,
    deadLettered: number,
  ): void {
    const lines = this.appliedLines.get(partitionKey(topic, partition)) ?? [];
    this.appliedLines.delete(partitionKey(topic, partition));
    for (const line of lines) this.options.logger.debug(line, 'record applied');
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

  private async lockCheckpoint(
    manager: EntityManager,
    topic: string,
    partition: number,
  ): Promise<{ next: bigint | undefined; horizon: bigint | undefined }> {
    const id = partitionKey(topic, partition);
    if (!this.knownCheckpointRows.has(id)) {
      await manager.query(
        'INSERT INTO consumer_checkpoints (consumer, topic, partition, next_offset) VALUES ($1, $2, $3, -1) ON CONFLICT DO NOTHING',
        [this.options.name, topic, partition],
      );
    }
    const rows: Array<{ next_offset: string; until_offset: string | null }> = await manager.query(
      `SELECT c.next_offset::text AS next_offset, h.until_offset::text AS until_offset
         FROM consumer_checkpoints c
         LEFT JOIN replay_horizons h USING (consumer, topic, partition)
        WHERE c.consumer = $1 AND c.topic = $2 AND c.partition = $3
          FOR UPDATE OF c`,
      [this.options.name, topic, partition],
    );
    const next = rows[0] ? BigInt(rows[0].next_offset) : undefined;
    const horizon = rows[0]?.until_offset ? BigInt(rows[0].until_offset) : undefined;
    return { next: next === undefined || next < 0n ? undefined : next, horizon };
  }

  /** Dead-letters inside the record's span, so the dead letter and any answer continue its trace. */
  private async deadLetter(
    context: RecordContext,
    message: KafkaMessage,
    record: DecodedRecord | null,
    failure: unknown,
  ): Promise<void> {
    const { topic, partition } = context;
    const recordType = record?.type ?? headerText(message.headers, 'ce_type');
    const target = { consumer: this.options.name, topic, partition, message, recordType, failed: true };
    await inRecordSpan(target, () => this.writeDeadLetter(context, message, record, failure));
  }

  private async writeDeadLetter(
    context: RecordContext,
    message: KafkaMessage,
    record: DecodedRecord | null,
    failure: unknown,
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
    const detail = errorText(failure);
    const { topic, partition, offset, key } = context;
    this.options.logger.error(
      {
        ...recordFields(topic, partition, message, record),
        error_id: errorId,
        reason,
        err: failure instanceof Error ? failure : undefined,
      },
      `record dead-lettered: ${detail}`,
    );
    await context.manager.query(
      `INSERT INTO dead_letters (consumer, topic, partition, "offset", key, value, reason, detail)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
      [this.options.name, topic, partition, offset, key, message.value, reason, detail],
    );
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
          value: message.value?.toString('base64') ?? '',
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
