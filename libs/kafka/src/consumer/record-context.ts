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
   * Whether a record it takes goes through the chunk even as the only record in hand (a record that
   * holds many requests); otherwise a lone record is applied on its own.
   */
  worthAlone?(record: DecodedRecord): boolean;
  apply(records: ChunkRecord[], manager: EntityManager): Promise<void>;
}
