import { PoisonRecordError } from '../consumer/errors';

/**
 * `max.message.bytes` of every topic (`ops topics create` sets it). The broker checks it against a
 * whole record batch, i.e. all the records of one partition in one produce request, so producers keep
 * a request's records under MAX_PRODUCE_REQUEST_BYTES and every record under MAX_RECORD_BYTES.
 *
 * Why 8 MiB: the largest request the edge accepts is a 1 MiB body, which re-serialised can grow to
 * about 5.25 MiB (`1e20` is written back as `100000000000000000000`); with the envelope around it that
 * must fit in one record. Kafka's own 1 MiB default could not carry it. The broker needs no setting of
 * its own: a topic's `max.message.bytes` overrides `message.max.bytes`, and neither
 * `replica.fetch.max.bytes` nor a consumer's `maxBytesPerPartition` is absolute (KIP-74: the first
 * batch of a fetch is returned whatever its size).
 */
export const TOPIC_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/**
 * The most one record (key, value, header names and values) may hold. The 1 MiB left below
 * TOPIC_MAX_MESSAGE_BYTES covers the batch's framing (61 bytes, and a few varints per record).
 */
export const MAX_RECORD_BYTES = 7 * 1024 * 1024;

/** A produce request's records together: a partition's batch in it stays under the topic's limit. */
export const MAX_PRODUCE_REQUEST_BYTES = MAX_RECORD_BYTES;

/** What a dead letter copies of the record it stands for at most; the whole record stays in `dead_letters`. */
export const DEAD_LETTER_VALUE_BYTES = 1024 * 1024;

/** What a dead letter copies of the error's text at most. */
export const DEAD_LETTER_DETAIL_CHARS = 4096;

/** The parts of a record its size is counted from, as kafkajs and the outbox hold them. */
export interface SizedRecord {
  key?: string | Buffer | null;
  value: string | Buffer | null;
  headers?: Record<string, string | Buffer | Array<string | Buffer> | undefined>;
}

function bytes(part: string | Buffer | null | undefined): number {
  if (part === null || part === undefined) return 0;
  return typeof part === 'string' ? Buffer.byteLength(part, 'utf8') : part.length;
}

/** The bytes a record puts on the wire, without the batch's framing. */
export function recordBytes(record: SizedRecord): number {
  let total = bytes(record.key) + bytes(record.value);
  for (const [name, value] of Object.entries(record.headers ?? {})) {
    total += Buffer.byteLength(name, 'utf8');
    for (const part of Array.isArray(value) ? value : [value]) total += bytes(part);
  }
  return total;
}

/**
 * A record over MAX_RECORD_BYTES: the broker would refuse it, every time. A PoisonRecordError, so a
 * consumer whose handler made it dead-letters the record it was applying at once (with a rejected
 * outcome) rather than retrying it.
 */
export class RecordTooLargeError extends PoisonRecordError {
  constructor(
    readonly topic: string,
    readonly bytes: number,
  ) {
    super(
      `a record of ${bytes} bytes for ${topic} is over the limit of ${MAX_RECORD_BYTES}`,
      'record_too_large',
    );
    this.name = 'RecordTooLargeError';
  }
}

/** Throws RecordTooLargeError for a record over MAX_RECORD_BYTES; returns its size otherwise. */
export function assertRecordFits(topic: string, record: SizedRecord): number {
  const size = recordBytes(record);
  if (size > MAX_RECORD_BYTES) throw new RecordTooLargeError(topic, size);
  return size;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` without U+0000 and lone surrogates (each becomes U+FFFD): Postgres text and jsonb refuse
 * both, so text a record brought must lose them before it goes into a dead letter's columns or an
 * outbox row's headers, or the write that records the refusal would fail in turn.
 */
export function storableText(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD').replaceAll(String.fromCharCode(0), '\uFFFD');
}
