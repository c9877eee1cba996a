import type { DecodedRecord, Envelope } from '@cms/contracts';
import type { EntityManager } from 'typeorm';

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
   * Whether records of this type each hold many requests (a batch of upserts, say): such a record goes
   * through the chunk handler even as the only record in hand (a lone record is otherwise applied on
   * its own), and, being long to apply, in a transaction of its own, while the consumer goes on with
   * the other partitions (see TransactionScheduler.submitAlone). Decided by the type alone, which the
   * consumer reads from the record's `ce_type` header before decoding it.
   */
  worthAlone?(record: Pick<DecodedRecord, 'type'>): boolean;
  apply(records: ChunkRecord[], manager: EntityManager): Promise<void>;
}
