import { DEAD_LETTER_TYPE } from '@cms/contracts';
import { createLogger, startTracing } from '@cms/http';
import { eventually, uniqueName } from '@cms/testing';
import type { IHeaders } from 'kafkajs';
import { Registry } from 'prom-client';

import { ConsumerRuntime, OutboxRelay, traceIdOf } from '../src';
import {
  COUNTER_ENTITIES,
  COUNTER_MIGRATIONS,
  counterHandler,
  counterMessage,
  counterRegistry,
  POISON_AMOUNT,
} from './fixtures/counter';
import { useKafkaSuite } from './fixtures/kafka-suite';

const suite = useKafkaSuite('telemetry-test');

const RECORD_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const POISON_TRACE_ID = '5b8efff798038103d269b633813fc60c';

function traceparent(traceId: string): string {
  return `00-${traceId}-b7ad6b7169203331-01`;
}

function text(headers: IHeaders | undefined, name: string): string | undefined {
  return headers?.[name]?.toString();
}

interface Published {
  value: string;
  headers: IHeaders | undefined;
}

describe('telemetry of the consumer runtime and the relay', () => {
  const lines: Array<Record<string, unknown>> = [];
  const metrics = new Registry();
  const published: Published[] = [];
  let runtime: ConsumerRuntime;
  let relay: OutboxRelay;
  let input: string;
  let facts: string;
  let name: string;
  let appliedCorrelationId: string;

  beforeAll(async () => {
    startTracing('telemetry-test');
    [input, facts] = (await suite.topics(
      { prefix: 'traced-in', partitions: 1 },
      { prefix: 'traced-facts', partitions: 1 },
    )) as [string, string];
    const { schema, dataSource } = await suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
    const logger = createLogger('telemetry-test', {
      level: 'debug',
      destination: { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
    relay = new OutboxRelay({
      dataSource,
      databaseUrl: suite.stack.databaseUrl,
      schema,
      producer: suite.producer,
      logger,
      metrics,
      pollMs: 50,
    });
    relay.start();
    name = uniqueName('traced');
    runtime = new ConsumerRuntime({
      name,
      topics: [input],
      kafka: suite.kafka,
      dataSource,
      registry: counterRegistry(),
      logger,
      metrics,
      handle: counterHandler(facts),
      onOutboxWritten: () => relay.kick(),
      deadLetterTopic: facts,
      retryBackoffMs: { initial: 20, max: 100 },
      sessionTimeoutMs: 10000,
    });
    void runtime.start();

    const reader = suite.kafka.consumer({ groupId: uniqueName('reader'), maxWaitTimeInMs: 50 });
    await reader.connect();
    await reader.subscribe({ topic: facts, fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) =>
        void published.push({ value: message.value?.toString() ?? '', headers: message.headers }),
    });

    const applied = counterMessage('traced', 0);
    const poison = counterMessage('traced', 1, POISON_AMOUNT);
    appliedCorrelationId = (JSON.parse(String(applied.value)) as { correlationid: string }).correlationid;
    await suite.producer.send(input, [
      { ...applied, headers: { ...applied.headers, traceparent: traceparent(RECORD_TRACE_ID) } },
      { ...poison, headers: { ...poison.headers, traceparent: traceparent(POISON_TRACE_ID) } },
    ]);
    await eventually('the fact and the dead letter are published', async () => published.length >= 2);
    await reader.disconnect();
  });

  afterAll(async () => {
    await runtime.stop();
    await relay.stop();
  });

  it("publishes the fact emitted while applying a record in the record's trace, under a span of its own", () => {
    const fact = published.find((entry) => text(entry.headers, 'ce_type') === 'test.counter.counted');

    expect(traceIdOf(fact!.headers)).toBe(RECORD_TRACE_ID);
    expect(text(fact!.headers, 'traceparent')).not.toBe(traceparent(RECORD_TRACE_ID));
  });

  it("publishes the dead letter of a refused record in that record's trace", () => {
    const deadLetter = published.find((entry) => text(entry.headers, 'ce_type') === DEAD_LETTER_TYPE);

    expect(traceIdOf(deadLetter!.headers)).toBe(POISON_TRACE_ID);
  });

  it('logs each applied record and each dead letter with its topic, partition, offset, correlation id, type and trace', () => {
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'debug',
        msg: 'record applied',
        topic: input,
        partition: 0,
        offset: '0',
        correlation_id: appliedCorrelationId,
        record_type: 'test.counter.incremented',
        trace_id: RECORD_TRACE_ID,
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: expect.stringMatching(/^record dead-lettered/),
        topic: input,
        partition: 0,
        offset: '1',
        record_type: 'test.counter.incremented',
        trace_id: POISON_TRACE_ID,
        error_id: expect.any(String),
      }),
    );
  });

  it('counts the records by result, reports no lag once caught up, and counts what the relay published', async () => {
    const text = await metrics.metrics();

    expect(text).toContain(
      `cms_records_processed_total{consumer="${name}",topic="${input}",result="applied"} 1`,
    );
    expect(text).toContain(
      `cms_records_processed_total{consumer="${name}",topic="${input}",result="dead_lettered"} 1`,
    );
    expect(text).toContain(`cms_consumer_lag{consumer="${name}",topic="${input}",partition="0"} 0`);
    expect(text).toMatch(/cms_outbox_published_total 2\b/);
    expect(text).toMatch(/cms_outbox_backlog 0\b/);
  });
});
