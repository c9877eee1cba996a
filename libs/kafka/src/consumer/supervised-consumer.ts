import type { Consumer } from 'kafkajs';
import type { Logger } from 'pino';

export interface SupervisedConsumerOptions {
  /** A new kafkajs consumer (same group every time). */
  create(): Consumer;
  /** Registers listeners, connects, subscribes and runs a consumer that `create` made. */
  run(consumer: Consumer): Promise<void>;
  logger: Logger;
  /** The wait before the first new consumer, doubled each time up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Keeps a kafkajs consumer running for as long as the process wants it. kafkajs restarts a consumer
 * after a retriable error, but gives up on some that are not: a broker that restarts can answer
 * "Failed to find group coordinator" (KafkaJSGroupCoordinatorNotFound), and the consumer then stays
 * disconnected for good while the process looks alive. After such a crash this starts a new consumer
 * in the same group, with a growing pause, until one runs again or `stop` is called.
 */
export class SupervisedConsumer {
  private current: Consumer | undefined;
  private stopped = true;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: SupervisedConsumerOptions) {}

  /** The consumer running now (or the last one). */
  get consumer(): Consumer {
    if (!this.current) throw new Error('the consumer has not been started');
    return this.current;
  }

  /** Starts the first consumer; an error here is the caller's (nothing is retried yet). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.launch();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.current?.disconnect();
  }

  private async launch(): Promise<void> {
    const consumer = this.options.create();
    this.current = consumer;
    consumer.on(consumer.events.GROUP_JOIN, () => {
      if (consumer === this.current) this.failures = 0;
    });
    consumer.on(consumer.events.CRASH, (event) => {
      // kafkajs restarts it itself when `restart` is true.
      if (event.payload.restart || this.stopped || consumer !== this.current) return;
      this.relaunchLater();
    });
    await this.options.run(consumer);
  }

  private relaunchLater(): void {
    const initial = this.options.initialDelayMs ?? 1000;
    const delay = Math.min(this.options.maxDelayMs ?? 30000, initial * 2 ** this.failures);
    this.failures += 1;
    this.options.logger.warn({ delay_ms: delay }, 'the Kafka consumer stopped for good; starting a new one');
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.stopped) return;
      this.launch().catch(async (error: unknown) => {
        this.options.logger.warn({ err: error }, 'a new Kafka consumer could not start; trying again');
        await this.current?.disconnect().catch(() => undefined);
        if (!this.stopped) this.relaunchLater();
      });
    }, delay);
  }
}
