import { randomUUID } from 'node:crypto';

import { TOPICS, type Envelope } from '@cms/contracts';
import type { Consumer, Kafka } from 'kafkajs';
import type { Logger } from 'pino';

import { SupervisedConsumer } from '../consumer/supervised-consumer';
import { LONG_POLL_FETCH } from '../consumer/transaction-scheduler';

interface Waiting {
  resolve: (outcome: Envelope | undefined) => void;
  timer: NodeJS.Timeout;
}

export interface OutcomeWaiterOptions {
  kafka: Kafka;
  logger: Logger;
  topic?: string;
  /** Each instance reads every outcome under a group of its own: `<prefix>-<uuid>`. */
  groupPrefix?: string;
  /** How long the broker holds a fetch when no outcome comes (KAFKA_FETCH_WAIT_MS); LONG_POLL_FETCH's unless told. */
  fetchWaitMs?: number;
}

/**
 * Lets the gateway wait for the owning service's answer to a request it produced. Every gateway
 * instance reads the whole outcome topic under its own consumer group and settles the waits whose
 * correlation id it holds; outcomes for other instances are ignored.
 */
export class OutcomeWaiter {
  private readonly supervised: SupervisedConsumer;
  private readonly groupId: string;
  private readonly waiting = new Map<string, Waiting>();
  private assigned = false;
  private positioned = false;
  private joined: Promise<void>;
  private markJoined!: () => void;

  constructor(private readonly options: OutcomeWaiterOptions) {
    this.groupId = `${options.groupPrefix ?? 'gateway-outcomes'}-${randomUUID()}`;
    this.supervised = new SupervisedConsumer({
      logger: options.logger,
      create: () =>
        options.kafka.consumer({
          groupId: this.groupId,
          // A long poll: an outcome answers the fetch as it comes; at rest it asks once per wait.
          maxWaitTimeInMs: options.fetchWaitMs ?? LONG_POLL_FETCH.maxWaitMs,
          minBytes: LONG_POLL_FETCH.minBytes,
          allowAutoTopicCreation: false,
          retry: { retries: 20, initialRetryTime: 300, maxRetryTime: 5000 },
        }),
      run: (consumer) => this.run(consumer),
    });
    this.joined = new Promise((resolve) => (this.markJoined = resolve));
  }

  get isReady(): boolean {
    return this.assigned;
  }

  get pending(): number {
    return this.waiting.size;
  }

  /** Resolves once the instance is in its group and reading, so no outcome from now on is missed. */
  async start(): Promise<void> {
    await this.supervised.start();
    await this.joined;
  }

  /** The kafkajs consumer reading now: a new one after kafkajs gave up on the last. */
  private get consumer(): Consumer {
    return this.supervised.consumer;
  }

  private async run(consumer: Consumer): Promise<void> {
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      // Only the first time: after a rejoin the group's own position is the right one.
      const positioned = this.positioned
        ? Promise.resolve()
        : this.startAtEnd(event.payload.memberAssignment);
      positioned.then(
        () => {
          this.positioned = true;
          this.assigned = true;
          this.markJoined();
        },
        (error: unknown) =>
          this.options.logger.error({ err: error }, 'could not position the outcome reader'),
      );
    });
    consumer.on(consumer.events.CRASH, () => {
      this.assigned = false;
    });
    await consumer.connect();
    await consumer.subscribe({ topic: this.options.topic ?? TOPICS.outcomes, fromBeginning: false });
    await consumer.run({
      // kafkajs' autoCommit sends a commit after every partition's batch; once a second is enough for
      // a reader that, after a rejoin, only needs to resume near where it was.
      autoCommit: false,
      autoCommitInterval: 1000,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary }) => {
        for (const message of batch.messages) this.settle(message.value);
        const last = batch.messages[batch.messages.length - 1];
        if (last) resolveOffset(last.offset);
        await commitOffsetsIfNecessary();
      },
    });
  }

  /**
   * A new group starts at "latest", but Kafka resolves "latest" at the first fetch, which may come
   * after a request that was already waiting got its answer. Seeking every assigned partition to the
   * end as it is now, before the reader counts as ready, makes "from now on" exact.
   */
  private async startAtEnd(assignment: Record<string, number[]>): Promise<void> {
    const admin = this.options.kafka.admin();
    await admin.connect();
    try {
      for (const [topic, partitions] of Object.entries(assignment)) {
        const ends = await admin.fetchTopicOffsets(topic);
        for (const partition of partitions) {
          const high = ends.find((end) => end.partition === partition)?.high;
          if (high !== undefined) this.consumer.seek({ topic, partition, offset: high });
        }
      }
    } finally {
      await admin.disconnect();
    }
  }

  /**
   * Registers interest in an outcome; call it before producing the request so a fast answer is not
   * missed. Resolves with the outcome, or undefined after `timeoutMs`.
   */
  wait(correlationId: string, timeoutMs: number): Promise<Envelope | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(correlationId);
        resolve(undefined);
      }, timeoutMs);
      this.waiting.set(correlationId, { resolve, timer });
    });
  }

  /** Gives up a wait, e.g. when producing the request failed. */
  cancel(correlationId: string): void {
    const waiting = this.waiting.get(correlationId);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.waiting.delete(correlationId);
    waiting.resolve(undefined);
  }

  async stop(): Promise<void> {
    for (const id of [...this.waiting.keys()]) this.cancel(id);
    await this.supervised.stop();
    const admin = this.options.kafka.admin();
    try {
      await admin.connect();
      await admin.deleteGroups([this.groupId]);
    } catch (error) {
      this.options.logger.warn({ err: error, group: this.groupId }, 'could not delete the outcome group');
    } finally {
      await admin.disconnect();
    }
  }

  private settle(value: Buffer | null): void {
    if (!value || this.waiting.size === 0) return;
    let outcome: Envelope;
    try {
      outcome = JSON.parse(value.toString('utf8')) as Envelope;
    } catch {
      return;
    }
    const waiting = this.waiting.get(outcome.correlationid);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.waiting.delete(outcome.correlationid);
    waiting.resolve(outcome);
  }
}
