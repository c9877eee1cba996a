import { Counter, Gauge, type Registry, type RegistryContentType } from 'prom-client';

export type RecordResult = 'applied' | 'dead_lettered' | 'skipped';

/** The metrics of the Kafka plumbing in one service's registry (see docs/architecture.md). */
export interface KafkaMetrics {
  recordsProcessed: Counter<'consumer' | 'topic' | 'result'>;
  consumerLag: Gauge<'consumer' | 'topic' | 'partition'>;
  outboxPublished: Counter;
  /** Adds a reader of the outbox backlog, asked at every scrape; returns its removal. */
  addBacklogReader(read: () => Promise<number>): () => void;
  /** Adds a reader of how long (ms) the outbox has not moved while rows wait; returns its removal. */
  addOutboxStallReader(read: () => number): () => void;
  /** Sets the reader of how long (ms) a consumer has not moved while records wait; returns its removal. */
  addConsumerStallReader(consumer: string, read: () => number): () => void;
}

const byRegistry = new WeakMap<Registry<RegistryContentType>, KafkaMetrics>();

/**
 * One set per registry: a service runs several consumers (and a relay) against the same registry,
 * and prom-client refuses a second metric of the same name.
 */
export function kafkaMetrics(registry: Registry<RegistryContentType>): KafkaMetrics {
  const existing = byRegistry.get(registry);
  if (existing) return existing;
  const backlogReaders = new Set<() => Promise<number>>();
  new Gauge({
    name: 'cms_outbox_backlog',
    help: 'Rows in the outbox not yet published, read at scrape time.',
    registers: [registry],
    async collect() {
      if (backlogReaders.size === 0) return;
      const counts = await Promise.all([...backlogReaders].map((read) => read()));
      this.set(counts.reduce((sum, count) => sum + count, 0));
    },
  });
  const outboxStallReaders = new Set<() => number>();
  new Gauge({
    name: 'cms_outbox_stalled_seconds',
    help: 'Seconds the first row waiting in the outbox has been waiting without anything published; 0 when empty.',
    registers: [registry],
    collect() {
      if (outboxStallReaders.size === 0) return;
      this.set(Math.max(...[...outboxStallReaders].map((read) => read())) / 1000);
    },
  });
  const consumerStallReaders = new Map<string, () => number>();
  new Gauge({
    name: 'cms_consumer_stalled_seconds',
    help: "Seconds a consumer's longest-waiting partition has had records waiting (lag above 0) at an unchanged position.",
    labelNames: ['consumer'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [consumer, read] of consumerStallReaders) this.set({ consumer }, read() / 1000);
    },
  });
  const metrics: KafkaMetrics = {
    recordsProcessed: new Counter({
      name: 'cms_records_processed_total',
      help: 'Records a consumer committed past: applied, dead-lettered, or skipped (not its type, or applied before).',
      labelNames: ['consumer', 'topic', 'result'] as const,
      registers: [registry],
    }),
    consumerLag: new Gauge({
      name: 'cms_consumer_lag',
      help: "Records between a partition's end and the consumer's position, as of the consumer's last fetch.",
      labelNames: ['consumer', 'topic', 'partition'] as const,
      registers: [registry],
    }),
    outboxPublished: new Counter({
      name: 'cms_outbox_published_total',
      help: 'Outbox rows the relay published and the broker acknowledged.',
      registers: [registry],
    }),
    addBacklogReader(read) {
      backlogReaders.add(read);
      return () => backlogReaders.delete(read);
    },
    addOutboxStallReader(read) {
      outboxStallReaders.add(read);
      return () => outboxStallReaders.delete(read);
    },
    addConsumerStallReader(consumer, read) {
      consumerStallReaders.set(consumer, read);
      return () => {
        if (consumerStallReaders.get(consumer) === read) consumerStallReaders.delete(consumer);
      };
    },
  };
  byRegistry.set(registry, metrics);
  return metrics;
}
