import {
  DEAD_LETTER_TYPE,
  RecordDecodeError,
  TOPICS,
  createEnvelope,
  deterministicId,
  type DecodedRecord,
} from '@cms/contracts';
import type { KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';

import { DEAD_LETTER_DETAIL_CHARS, DEAD_LETTER_VALUE_BYTES, storableText } from '../records/record-bounds';
import { headerText, inRecordSpan } from '../telemetry/trace-headers';
import { recordFields } from './consumer-telemetry';
import { PoisonRecordError } from './errors';
import type { RecordContext } from './record-context';

export interface RejectedRecord {
  /** The decoded record, or null when it could not even be decoded. */
  record: DecodedRecord | null;
  raw: KafkaMessage;
  reason: string;
  detail: string;
  /** Also in the log line, so an operator can find this rejection from the client's error id. */
  errorId: string;
}

/** What of ConsumerRuntimeOptions dead-lettering reads. */
export interface DeadLetterOptions {
  name: string;
  logger: Logger;
  /** Where dead letters go; default `cms.deadletters.v1`. */
  deadLetterTopic?: string;
  /** Runs in the transaction that dead-letters a record, e.g. to answer the request with a rejection. */
  onRejected?(rejected: RejectedRecord, context: RecordContext): Promise<void>;
}

/** A failure as text: a decode error with its details, an error's message, anything else as it prints. */
export function errorText(error: unknown): string {
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
 * Dead-letters a record in the transaction that moves its partition past it: a `dead_letters` row
 * holding the whole record, a dead-letter record (through the outbox) copying its first bytes, and
 * the consumer's answer to it (onRejected: a request is answered with a rejection). The error id the
 * answer carries is made from the record's place in the log, so every attempt makes the same one.
 */
export class DeadLetterWriter {
  constructor(private readonly options: DeadLetterOptions) {}

  /**
   * Dead-letters inside the record's span, so the dead letter and any answer continue its trace.
   * `bare`: the `dead_letters` row only, for when writing the rest failed as well.
   */
  async write(
    context: RecordContext,
    message: KafkaMessage,
    record: DecodedRecord | null,
    failure: unknown,
    bare = false,
  ): Promise<void> {
    const { topic, partition } = context;
    const recordType = record?.type ?? headerText(message.headers, 'ce_type');
    const target = { consumer: this.options.name, topic, partition, message, recordType, failed: true };
    await inRecordSpan(target, () => this.writeInSpan(context, message, record, failure, bare));
  }

  private async writeInSpan(
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
}
