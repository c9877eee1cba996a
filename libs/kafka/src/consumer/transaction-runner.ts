import { RecordDecodeError, type DecodedRecord, type RecordTypeRegistry } from '@cms/contracts';
import type { KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';

import { appendToOutbox, envelopeRecord, type OutboxRecord } from '../outbox/outbox';
import { headerText, inRecordSpan } from '../telemetry/trace-headers';
import type { CheckpointStore, Rewind, SkippedRun } from './checkpoint-store';
import { recordFields, type ConsumerTelemetry } from './consumer-telemetry';
import type { DeadLetterWriter } from './dead-letter-writer';
import { partitionKey } from './partition-key';
import type { ChunkHandler, ChunkRecord, RecordContext } from './record-context';

/** What came of a partition's chunk: applied (its checkpoint moved past it), or left for a later fetch. */
export type Outcome = { kind: 'applied'; wroteOutbox: boolean } | { kind: 'stopped' };

/** The records of one partition that a transaction applies (or dead-letters, those in `reject`). */
export interface Member {
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

/** The record whose handler raised an error. */
export interface Culprit {
  topic: string;
  partition: number;
  offset: string;
}

/** What of ConsumerRuntimeOptions applying records reads. */
export interface TransactionRunnerOptions {
  name: string;
  dataSource: DataSource;
  registry: RecordTypeRegistry;
  logger: Logger;
  handle(record: DecodedRecord, context: RecordContext): Promise<void>;
  chunk?: ChunkHandler;
  accepts?(type: string): boolean;
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

/**
 * Applies chunks of records of some partitions (members) in one Postgres transaction, exactly once:
 * it locks their checkpoints, skips records below them, decodes and applies the rest in each
 * partition's order (runs of records the chunk handler takes go to it together; a lone one only when
 * it is worth it alone), dead-letters those it is told to, writes the facts they produce to the
 * outbox, and moves the checkpoints. Records of types the consumer does not apply only move the
 * checkpoint on.
 */
export class TransactionRunner {
  /** The record whose handler raised each error, for as long as the error is in hand. */
  private readonly culprits = new WeakMap<object, Culprit>();

  constructor(
    private readonly options: TransactionRunnerOptions,
    private readonly checkpoints: CheckpointStore,
    private readonly deadLetters: DeadLetterWriter,
    private readonly telemetry: ConsumerTelemetry,
    /** A partition whose stored checkpoint is behind what was read past: it is read again from `next`. */
    private readonly rewind: (topic: string, partition: number, next: bigint, offsetInHand: string) => void,
  ) {}

  /** The record whose handler raised `error` in a transaction, if a handler did. */
  culpritOf(error: unknown): Culprit | undefined {
    return typeof error === 'object' && error !== null ? this.culprits.get(error) : undefined;
  }

  /**
   * One transaction: lock the members' checkpoints, apply what is above them, move them. Records in a
   * member's `reject` are dead-lettered with its `failure` instead of applied. The checkpoints of
   * `extras`, partitions only read past, are stored too. Returns whether anything went to the outbox.
   * Throws CheckpointBehindError when a member's stored checkpoint is below the records in hand.
   */
  async run(members: Member[], extras: SkippedRun[] = []): Promise<boolean> {
    const { dataSource } = this.options;
    const pending: OutboxRecord[] = [];
    const lines: Array<Record<string, unknown>> = [];
    const counts = members.map(() => ({ applied: 0, deadLettered: 0 }));
    let rewinds: Rewind[] = [];
    await dataSource.transaction(async (manager) => {
      const partitions = [...members, ...extras];
      const stored = await this.checkpoints.lock(manager, partitions);
      for (const member of members) {
        this.checkpoints.fence(stored, member.topic, member.partition, member.messages[0]!.offset);
      }
      const readPast = this.checkpoints.settleReadPast(stored, extras);
      const { updates } = readPast;
      rewinds = readPast.rewinds;
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
      await this.checkpoints.move(manager, updates);
    });
    this.checkpoints.committed(members);
    this.checkpoints.committed(extras);
    for (const { topic, partition, next } of rewinds) this.rewind(topic, partition, next, 'read past');
    for (const line of lines) this.options.logger.debug(line, 'record applied');
    for (const [index, member] of members.entries()) {
      const { applied, deadLettered } = counts[index]!;
      this.telemetry.committed(member.topic, member.messages.length, applied, deadLettered);
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
        await this.deadLetters.write(
          context,
          message,
          record,
          reject.get(message.offset),
          member.bare === true,
        );
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
        await this.deadLetters.write(context, message, null, error);
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

  /** For a record whose type is unknown, whether the consumer claims it by its header-less type. */
  private acceptsRaw(message: KafkaMessage): boolean {
    try {
      const parsed = JSON.parse(message.value?.toString('utf8') ?? 'null') as { type?: unknown };
      return typeof parsed.type === 'string' && this.options.accepts!(parsed.type);
    } catch {
      return true;
    }
  }
}
