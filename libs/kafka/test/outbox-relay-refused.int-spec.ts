import { eventually } from '@cms/testing';
import { ConfigResourceTypes } from 'kafkajs';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';

import { BatchingProducer, type OutboxRelay, TOPIC_MAX_MESSAGE_BYTES } from '../src';
import { useKafkaSuite } from './fixtures/kafka-suite';
import { appendSeqs, readSeqs, relayPlumbing } from './fixtures/outbox-rows';

/**
 * A broker that refuses the relay's batch leaves kafkajs' idempotent producer with sequence numbers it
 * took back, so the producer is replaced; once the broker accepts again, the outbox drains in id
 * order, nothing lost and nothing published twice.
 */
const suite = useKafkaSuite('outbox-relay-refused-test');

async function setMaxMessageBytes(topic: string, bytes: number): Promise<void> {
  await suite.admin.alterConfigs({
    validateOnly: false,
    resources: [
      {
        type: ConfigResourceTypes.TOPIC,
        name: topic,
        configEntries: [{ name: 'max.message.bytes', value: String(bytes) }],
      },
    ],
  });
}

describe('an outbox relay whose batch the broker refuses', () => {
  it('replaces its producer, waits with the rows in place, and drains them in order once the broker accepts', async () => {
    const { topic, schema, dataSource } = await relayPlumbing(suite, 'refused');
    const producer = new BatchingProducer(suite.kafka);
    await producer.connect();
    const metrics = new Registry();
    const relay = suite.relay(schema, dataSource, { producer, metrics, progressProbeMs: 100 });
    try {
      await refusedThenAccepted(topic, dataSource, producer, relay, metrics);
    } finally {
      await relay.stop(0);
      await producer.disconnect();
    }
  });
});

async function refusedThenAccepted(
  topic: string,
  dataSource: DataSource,
  producer: BatchingProducer,
  relay: OutboxRelay,
  metrics: Registry,
): Promise<void> {
  // Each row fits alone; the relay's batch of them does not.
  await setMaxMessageBytes(topic, 8 * 1024);
  await appendSeqs(dataSource, topic, 0, 40);
  relay.start();
  await eventually('the producer replaced after refusals', async () => producer.replacedCount >= 2, 60000);
  expect(await relay.backlog()).toBe(40);
  await eventually('the outbox seen stalled', async () => relay.stalledMs() >= 500);
  expect(await metrics.getSingleMetricAsString('cms_outbox_stalled_seconds')).toMatch(
    /cms_outbox_stalled_seconds [0-9.]+/,
  );

  await setMaxMessageBytes(topic, TOPIC_MAX_MESSAGE_BYTES);
  await appendSeqs(dataSource, topic, 40, 10);
  await eventually('the outbox drained', async () => (await relay.backlog()) === 0, 60000);
  await eventually('no longer stalled', async () => relay.stalledMs() === 0);

  expect(await readSeqs(suite, topic, 50)).toEqual(Array.from({ length: 50 }, (_, seq) => seq));
}
