import { AsyncResource } from 'node:async_hooks';

import {
  Partitioners,
  type Kafka,
  type Message,
  type Producer,
  type RecordMetadata,
  type TopicMessages,
} from 'kafkajs';

import { withTraceHeaders } from '../telemetry/trace-headers';

export interface BatchingProducerOptions {
  /** How long the first record of a batch waits for company. */
  lingerMs?: number;
  /** Records in one produce request at most. */
  maxBatchRecords?: number;
}

interface Pending {
  topic: string;
  messages: Message[];
  resolve: (metadata: RecordMetadata[]) => void;
  reject: (error: unknown) => void;
}

/**
 * An idempotent, acks=all producer that gathers concurrent `send` calls into one produce request.
 * kafkajs awaits every request, so sending records one by one caps a process near 2k records/s;
 * here, while one request is in flight the next batch fills up, and a lone record waits at most
 * `lingerMs`. Records sent to the same partition keep their call order.
 */
export class BatchingProducer {
  private readonly producer: Producer;
  private readonly lingerMs: number;
  private readonly maxBatchRecords: number;
  private queue: Pending[] = [];
  private queuedRecords = 0;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private connected = false;
  /**
   * The context the producer was made in. A batch carries the records of many callers, so it is sent
   * from here rather than from whichever caller's request or trace happened to start the linger timer.
   */
  private readonly ownContext = new AsyncResource('BatchingProducer');

  constructor(kafka: Kafka, options: BatchingProducerOptions = {}) {
    this.producer = kafka.producer({
      idempotent: true,
      // One request at a time keeps per-partition order even across retries.
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: false,
      // Idempotence only holds while kafkajs keeps retrying the same sequence numbers.
      retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 100, maxRetryTime: 5000 },
    });
    this.lingerMs = options.lingerMs ?? 2;
    this.maxBatchRecords = options.maxBatchRecords ?? 2000;
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
    if (!this.connected) return Promise.reject(new Error('producer is not connected'));
    const traced = withTraceHeaders(messages);
    return new Promise<RecordMetadata[]>((resolve, reject) => {
      this.queue.push({ topic, messages: traced, resolve, reject });
      this.queuedRecords += messages.length;
      this.schedule();
    });
  }

  /** Sends exactly these records (headers as given) now, as one request, after anything already queued. */
  async sendBatch(topicMessages: TopicMessages[]): Promise<RecordMetadata[]> {
    await this.flushAll();
    return this.producer.sendBatch({ topicMessages, acks: -1 });
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
    while (
      this.queue.length > 0 &&
      (records === 0 || records + this.queue[0]!.messages.length <= this.maxBatchRecords)
    ) {
      const next = this.queue.shift()!;
      records += next.messages.length;
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
