import { createEnvelope, OUTCOME_TYPES } from '@cms/contracts';
import { migrationDrift } from '@cms/persistence';
import { eventually, uniqueName, uniqueTopic } from '@cms/testing';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Column, Entity, PrimaryColumn, type DataSource } from 'typeorm';

import {
  describeTopics,
  ensureTopics,
  TOPIC_MAX_MESSAGE_BYTES,
  topicSpecs,
  KAFKA_PLUMBING_ENTITIES,
  KAFKA_PLUMBING_MIGRATIONS,
  KafkaRecordServer,
  OutcomeWaiter,
  recordContext,
  type TopicSpec,
} from '../src';
import {
  COUNTER_MIGRATIONS,
  COUNTER_TYPE,
  CounterIncrementedV1,
  counterMessage,
  counterRegistry,
} from './fixtures/counter';
import { useKafkaSuite } from './fixtures/kafka-suite';

const suite = useKafkaSuite('plumbing-test');
async function schemaWith(
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: Function[],
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[],
): Promise<DataSource> {
  return (await suite.schema(entities, migrations)).dataSource;
}

describe('topic creation', () => {
  it('creates missing topics with their partitions and retention, and reports them as existing afterwards', async () => {
    const specs: TopicSpec[] = [
      {
        name: uniqueTopic('forever'),
        partitions: 4,
        config: { 'retention.ms': '-1', 'retention.bytes': '-1' },
      },
      { name: uniqueTopic('short'), partitions: 2, config: { 'retention.ms': '3600000' } },
    ];
    suite.own(...specs.map((spec) => spec.name));

    const first = await ensureTopics(suite.admin, specs);
    const second = await ensureTopics(suite.admin, specs);

    expect(first.map((report) => [report.status, report.partitions, report.problems])).toEqual([
      ['created', 4, []],
      ['created', 2, []],
    ]);
    expect(second.map((report) => report.status)).toEqual(['exists', 'exists']);
  });

  it('reports a topic whose partitions or retention differ from its spec without changing it', async () => {
    const [name] = await suite.topics({ prefix: 'drifted', partitions: 1 });

    const [report] = await describeTopics(suite.admin, [
      { name, partitions: 3, config: { 'retention.ms': '-1' } },
    ]);

    expect(report!.status).toBe('mismatch');
    expect(report!.problems).toEqual([
      'has 1 partitions, spec says 3',
      expect.stringMatching(/^retention\.ms is \d+, spec says -1$/),
    ]);
    expect((await suite.admin.fetchTopicMetadata({ topics: [name] })).topics[0]!.partitions).toHaveLength(1);
  });
});

describe('the size limit of topics', () => {
  it('is set on every topic of the system', () => {
    for (const spec of topicSpecs()) {
      expect([spec.name, spec.config['max.message.bytes']]).toEqual([
        spec.name,
        String(TOPIC_MAX_MESSAGE_BYTES),
      ]);
    }
  });

  it('is reported when an existing topic lacks it, and set by topics create keeping its other settings', async () => {
    const name = uniqueTopic('unsized');
    suite.own(name);
    const config = { 'retention.ms': '-1', 'max.message.bytes': String(TOPIC_MAX_MESSAGE_BYTES) };
    // Created before the limit was part of the spec: retention only.
    await ensureTopics(suite.admin, [{ name, partitions: 2, config: { 'retention.ms': '-1' } }]);

    const [before] = await describeTopics(suite.admin, [{ name, partitions: 2, config }]);
    const [created] = await ensureTopics(suite.admin, [{ name, partitions: 2, config }]);
    const [after] = await describeTopics(suite.admin, [{ name, partitions: 2, config }]);

    expect(before!.status).toBe('mismatch');
    expect(before!.problems).toEqual([
      expect.stringMatching(
        /^max\.message\.bytes is \d+, spec says 8388608 \(`ops topics create` sets it\)$/,
      ),
    ]);
    expect(created!.status).toBe('altered');
    expect(after).toEqual({ name, status: 'exists', partitions: 2, problems: [] });
  });
});

describe('the Nest transport', () => {
  const applied: string[] = [];

  @Controller()
  class CounterConsumer {
    @EventPattern(COUNTER_TYPE)
    async onIncrement(
      @Payload() record: { id: string; data: CounterIncrementedV1 },
      @Ctx() context: unknown,
    ): Promise<void> {
      await recordContext(context).manager.query(
        'INSERT INTO applied (record_id, counter, seq, times) VALUES ($1, $2, $3, 1)',
        [record.id, record.data.counter, record.data.seq],
      );
      applied.push(record.id);
    }
  }

  @Module({ controllers: [CounterConsumer] })
  class CounterModule {}

  it('hands each record to its @EventPattern handler inside the checkpoint transaction and skips types nobody handles', async () => {
    const [input] = await suite.topics({ prefix: 'nest-in', partitions: 2 });
    const dataSource = await schemaWith(KAFKA_PLUMBING_ENTITIES, COUNTER_MIGRATIONS);
    const registry = counterRegistry().register({
      type: 'test.other.thing',
      version: 1,
      schema: CounterIncrementedV1,
    });
    const name = uniqueName('nest');
    const app = await NestFactory.createMicroservice(CounterModule, {
      strategy: new KafkaRecordServer({
        name,
        topics: [input!],
        kafka: suite.kafka,
        dataSource,
        registry,
        logger: suite.logger,
      }),
      logger: false,
    });
    await app.listen();

    const other = createEnvelope({
      type: 'test.other.thing',
      source: 'test',
      workspaceid: 'w',
      data: { counter: 'x', amount: 1, seq: 0 },
    });
    await suite.producer.send(input, [
      ...Array.from({ length: 20 }, (_, seq) => counterMessage('n', seq)),
      { key: 'n', value: JSON.stringify(other), headers: { ce_type: other.type } },
    ]);
    await eventually('20 applied', async () => {
      const [row] = await dataSource.query('SELECT count(*)::int AS n FROM applied');
      return row.n === 20;
    });
    await eventually('every partition checkpointed to its end', async () => {
      const ends = await suite.admin.fetchTopicOffsets(input);
      const rows: Array<{ partition: number; next_offset: string }> = await dataSource.query(
        'SELECT partition, next_offset::text AS next_offset FROM consumer_checkpoints WHERE consumer = $1',
        [name],
      );
      return ends.every(
        (end) =>
          end.high === '0' ||
          rows.some((row) => row.partition === end.partition && row.next_offset === end.high),
      );
    });
    await app.close();

    expect(applied).toHaveLength(20);
    expect(new Set(applied).size).toBe(20);
  });
});

describe('the outcome waiter', () => {
  it('settles a wait with the outcome carrying its correlation id and times out otherwise', async () => {
    const [outcomes] = await suite.topics({ prefix: 'outcomes', partitions: 3 });
    const waiter = new OutcomeWaiter({
      kafka: suite.kafka,
      logger: suite.logger,
      topic: outcomes!,
      groupPrefix: 'test-outcomes',
    });
    await waiter.start();

    const correlationid = uniqueName('corr');
    const waiting = waiter.wait(correlationid, 15000);
    const nobody = waiter.wait('nobody-answers', 300);
    const unrelated = createEnvelope({
      type: OUTCOME_TYPES.accepted,
      source: 'test',
      workspaceid: 'w',
      correlationid: 'someone-else',
      data: { status: 201 },
    });
    const mine = createEnvelope({
      type: OUTCOME_TYPES.accepted,
      source: 'test',
      workspaceid: 'w',
      correlationid,
      data: { status: 201, resource: { id: 7 } },
    });
    await suite.producer.send(outcomes, [
      { key: 'w', value: JSON.stringify(unrelated) },
      { key: 'w', value: JSON.stringify(mine) },
    ]);

    expect(await waiting).toMatchObject({ correlationid, data: { status: 201, resource: { id: 7 } } });
    expect(await nobody).toBeUndefined();
    expect(waiter.pending).toBe(0);
    await waiter.stop();
  });
});

describe('migration drift', () => {
  @Entity({ name: 'consumer_checkpoints' })
  class CheckpointWithExtraColumn {
    @PrimaryColumn({ type: 'text' }) consumer!: string;
    @PrimaryColumn({ type: 'text' }) topic!: string;
    @PrimaryColumn({ type: 'integer' }) partition!: number;
    @Column({ name: 'next_offset', type: 'bigint' }) nextOffset!: string;
    @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' }) updatedAt!: Date;
    @Column({ type: 'text', nullable: true }) owner!: string | null;
  }

  it('finds nothing when the migrations build exactly what the entities describe', async () => {
    const dataSource = await schemaWith(KAFKA_PLUMBING_ENTITIES, KAFKA_PLUMBING_MIGRATIONS);
    expect(await migrationDrift(dataSource)).toEqual([]);
  });

  it('names the SQL a migration is missing when an entity gained a column', async () => {
    const dataSource = await schemaWith([CheckpointWithExtraColumn], KAFKA_PLUMBING_MIGRATIONS);
    const drift = await migrationDrift(dataSource);
    expect(drift.join('\n')).toMatch(/ADD "owner" text/);
  });
});
