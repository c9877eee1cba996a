import { AsyncResource } from 'node:async_hooks';

import {
  Partitioners,
  type Kafka,
  type Message,
  type Producer,
  type RecordMetadata,
  type TopicMessages,
} from 'kafkajs';

import { assertRecordFits, MAX_PRODUCE_REQUEST_BYTES, RecordTooLargeError } from '../records/record-bounds';
import { withTraceHeaders } from '../telemetry/trace-headers';

export interface BatchingProducerOptions {
  /** How long the first record of a batch waits for company. */
  lingerMs?: number;
  /** Records in one produce request at most. */
  maxBatchRecords?: number;
  /** Bytes of records in one produce request at most (one record over it goes alone). */
  maxBatchBytes?: number;
}

interface Pending {
  topic: string;
  messages: Message[];
  bytes: number;
  resolve: (metadata: RecordMetadata[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Whether a failed send leaves the kafkajs producer unable to send in order again, so that it must be
 * replaced. kafkajs (producer/sendMessages.js) hands out sequence numbers for every partition of a
 * request and, when the request fails, takes them back for all of them, including partitions the
 * broker had written: the next send there repeats a sequence the broker has seen, and every later one
 * is answered OUT_OF_ORDER_SEQUENCE_NUMBER. The broker's own fatal answers (INVALID_PRODUCER_EPOCH,
 * UNKNOWN_PRODUCER_ID, INVALID_PRODUCER_ID_MAPPING, TRANSACTION_COORDINATOR_FENCED) and kafkajs giving
 * up (its retries never end for an idempotent producer, so a rejection means a non-retriable error,
 * MESSAGE_TOO_LARGE among them) end the same way. So every failed send replaces the producer,
 * except the refusals of a request that never reached the broker.
 */
export function needsNewProducer(error: unknown): boolean {
  return !(error instanceof RecordTooLargeError) && !(error instanceof ProducerClosedError);
}

/** The producer was disconnected before the records were sent. */
export class ProducerClosedError extends Error {
  constructor() {
    super('producer is not connected');
    this.name = 'ProducerClosedError';
  }
}

/** The broker's error name (kafkajs' `type`) of a failed send, looking through kafkajs' wrappers. */
export function producerErrorType(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const candidate = current as { type?: unknown; cause?: unknown; originalError?: unknown };
    if (typeof candidate.type === 'string') return candidate.type;
    current = candidate.cause ?? candidate.originalError;
  }
  return undefined;
}

/**
 * An idempotent, acks=all producer that gathers concurrent `send` calls into one produce request.
 * kafkajs awaits every request, so sending records one by one caps a process near 2k records/s;
 * here, while one request is in flight the next batch fills up, and a lone record waits at most
 * `lingerMs`. Records sent to the same partition keep their call order.
 */
export class BatchingProducer {
  private producer: Producer;
  private readonly lingerMs: number;
  private readonly maxBatchRecords: number;
  private readonly maxBatchBytes: number;
  private queue: Pending[] = [];
  private queuedRecords = 0;
  private replacements = 0;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private connected = false;
  /**
   * The context the producer was made in. A batch carries the records of many callers, so it is sent
   * from here rather than from whichever caller's request or trace happened to start the linger timer.
   */
  private readonly ownContext = new AsyncResource('BatchingProducer');

  constructor(
    private readonly kafka: Kafka,
    options: BatchingProducerOptions = {},
  ) {
    this.producer = this.createProducer();
    this.lingerMs = options.lingerMs ?? 2;
    this.maxBatchRecords = options.maxBatchRecords ?? 2000;
    this.maxBatchBytes = options.maxBatchBytes ?? MAX_PRODUCE_REQUEST_BYTES;
  }

  private createProducer(): Producer {
    return this.kafka.producer({
      idempotent: true,
      // One request at a time keeps per-partition order even across retries.
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: false,
      // Idempotence only holds while kafkajs keeps retrying the same sequence numbers.
      retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 100, maxRetryTime: 5000 },
    });
  }

  /** How many times a producer was replaced after a send it could not recover from. */
  get replacedCount(): number {
    return this.replacements;
  }

  async connect(): Promise<void> {
    await this.producer.connect();
    this.connected = true;
  }

  async disconnect(): Promise<void> {
    await this.flushAll();
    this.connected = false;
    await this.producer.disconnect();
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /**
   * Resolves once the broker acknowledged the records (acks=all). Records without a `traceparent`
   * header get the caller's active trace context, so their consumers continue the caller's trace.
   */
  send(topic: string, messages: Message[]): Promise<RecordMetadata[]> {
    if (!this.connected) return Promise.reject(new ProducerClosedError());
    const traced = withTraceHeaders(messages);
    let bytes = 0;
    try {
      // Refused here, alone: in a batch it would make the broker refuse its neighbours too.
      for (const message of traced) bytes += assertRecordFits(topic, message);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<RecordMetadata[]>((resolve, reject) => {
      this.queue.push({ topic, messages: traced, bytes, resolve, reject });
      this.queuedRecords += messages.length;
      this.schedule();
    });
  }

  /**
   * Sends exactly these records (headers as given) now, as one request, after anything already queued.
   * The caller keeps them under MAX_RECORD_BYTES each and MAX_PRODUCE_REQUEST_BYTES together. A failed
   * send replaces the producer (see needsNewProducer) before it rejects, so the caller's next try goes
   * out with a producer that can send.
   */
  async sendBatch(topicMessages: TopicMessages[]): Promise<RecordMetadata[]> {
    await this.flushAll();
    try {
      return await this.producer.sendBatch({ topicMessages, acks: -1 });
    } catch (error) {
      await this.replaceAfter(error);
      throw error;
    }
  }

  /**
   * A new kafkajs producer (a new producer id, sequences from 0) in place of one whose send failed.
   * Sends are one at a time, so none is in flight on the old one.
   */
  private async replaceAfter(error: unknown): Promise<void> {
    if (!this.connected || !needsNewProducer(error)) return;
    const old = this.producer;
    this.producer = this.createProducer();
    this.replacements += 1;
    this.kafka.logger().warn('replacing the producer after a failed send', {
      error: error instanceof Error ? error.message : String(error),
      type: producerErrorType(error),
      replacements: this.replacements,
    });
    await old.disconnect().catch(() => undefined);
    await this.connectReplacement(this.producer);
  }

  /**
   * Connects a replacement, for as long as it takes: sending before its connect succeeded would send
   * without a producer id, that is without idempotence. The sends waiting meanwhile wait for it.
   */
  private async connectReplacement(producer: Producer): Promise<void> {
    let wait = 100;
    while (this.connected && this.producer === producer) {
      try {
        await producer.connect();
        return;
      } catch (error) {
        this.kafka.logger().warn('the replacement producer could not connect; retrying', {
          error: error instanceof Error ? error.message : String(error),
        });
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(wait * 2, 5000);
      }
    }
  }

  private schedule(): void {
    if (this.inFlight) return;
    if (this.queuedRecords >= this.maxBatchRecords) {
      this.ownContext.runInAsyncScope(() => this.flushNow());
      return;
    }
    this.timer ??= this.ownContext.runInAsyncScope(() => setTimeout(() => this.flushNow(), this.lingerMs));
  }

  private flushNow(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.inFlight || this.queue.length === 0) return;
    const batch: Pending[] = [];
    let records = 0;
    let bytes = 0;
    while (
      this.queue.length > 0 &&
      (records === 0 ||
        (records + this.queue[0]!.messages.length <= this.maxBatchRecords &&
          bytes + this.queue[0]!.bytes <= this.maxBatchBytes))
    ) {
      const next = this.queue.shift()!;
      records += next.messages.length;
      bytes += next.bytes;
      batch.push(next);
    }
    this.queuedRecords -= records;
    this.inFlight = this.produce(batch).finally(() => {
      this.inFlight = undefined;
      if (this.queue.length > 0) this.flushNow();
    });
  }

  private async produce(batch: Pending[]): Promise<void> {
    const byTopic = new Map<string, Message[]>();
    for (const pending of batch) {
      const messages = byTopic.get(pending.topic) ?? [];
      messages.push(...pending.messages);
      byTopic.set(pending.topic, messages);
    }
    try {
      const metadata = await this.producer.sendBatch({
        topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
        acks: -1,
      });
      for (const pending of batch)
        pending.resolve(metadata.filter((entry) => entry.topicName === pending.topic));
    } catch (error) {
      // Replaced before the callers hear of it, so that their retries go to the new producer.
      await this.replaceAfter(error);
      for (const pending of batch) pending.reject(error);
    }
  }

  private async flushAll(): Promise<void> {
    while (this.inFlight || this.queue.length > 0) {
      this.flushNow();
      await this.inFlight;
    }
  }
}
