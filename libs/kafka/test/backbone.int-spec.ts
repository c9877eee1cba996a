import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import { createEnvelope } from '@cms/contracts';
import { eventually, uniqueName } from '@cms/testing';
import type { EachMessagePayload } from 'kafkajs';
import type { DataSource } from 'typeorm';

import { appendToOutbox, ConsumerRuntime, envelopeRecord, OutboxRelay } from '../src';
import {
  COUNTED_TYPE,
  COUNTER_ENTITIES,
  COUNTER_MIGRATIONS,
  counterConsumer,
  counterMessage,
  CRASH_AMOUNT,
  POISON_AMOUNT,
} from './fixtures/counter';
import { useKafkaSuite } from './fixtures/kafka-suite';

const suite = useKafkaSuite('backbone-test');
const WORKSPACE_ROOT = join(__dirname, '..', '..', '..');

async function freshTopics(partitions: number): Promise<{ input: string; facts: string }> {
  const [input, facts] = await suite.topics(
    { prefix: 'counter-in', partitions },
    { prefix: 'counter-facts', partitions },
  );
  return { input: input!, facts: facts! };
}

function freshSchema(): Promise<{ schema: string; dataSource: DataSource }> {
  return suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
}

function runtimeFor(
  dataSource: DataSource,
  name: string,
  input: string,
  facts: string,
  relay?: OutboxRelay,
): ConsumerRuntime {
  return new ConsumerRuntime({
    ...counterConsumer(suite, dataSource, name, input, facts),
    onOutboxWritten: () => relay?.kick(),
  });
}

async function appliedSummary(
  dataSource: DataSource,
): Promise<{ rows: number; maxTimes: number; total: number }> {
  const [row] = await dataSource.query(
    `SELECT count(*)::int AS rows, coalesce(max(times), 0)::int AS max_times,
            (SELECT coalesce(sum(total), 0)::int FROM counters) AS total FROM applied`,
  );
  return { rows: row.rows, maxTimes: row.max_times, total: row.total };
}

/** Reads a whole topic from the beginning until `expected` distinct ids were seen. */
async function readTopic(
  topic: string,
  expected: number,
): Promise<Array<{ id: string; partition: number; value: Record<string, unknown> }>> {
  const consumer = suite.kafka.consumer({ groupId: uniqueName('reader'), maxWaitTimeInMs: 50 });
  const seen: Array<{ id: string; partition: number; value: Record<string, unknown> }> = [];
  // A rebalance may hand the reader a batch twice: a record is its partition and offset.
  const positions = new Set<string>();
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message, partition }: EachMessagePayload) => {
      if (positions.has(`${partition}/${message.offset}`)) return;
      positions.add(`${partition}/${message.offset}`);
      const value = JSON.parse(message.value!.toString()) as Record<string, unknown>;
      seen.push({ id: String(value.id), partition, value });
    },
  });
  try {
    await eventually(
      `${expected} records on ${topic}`,
      async () => new Set(seen.map((s) => s.id)).size >= expected,
      60000,
    );
  } finally {
    await consumer.disconnect();
  }
  return seen;
}

describe('the consumer runtime', () => {
  it('applies every record exactly once, also when Kafka delivers the partition again from the start', async () => {
    const { input, facts } = await freshTopics(3);
    const { schema, dataSource } = await freshSchema();
    const relay = suite.relay(schema, dataSource);
    relay.start();
    const name = uniqueName('exactly-once');
    let runtime = runtimeFor(dataSource, name, input, facts, relay);
    await runtime.start();

    const first = Array.from({ length: 600 }, (_, seq) => counterMessage(`c${seq % 7}`, seq, 2));
    await Promise.all(first.map((message) => suite.producer.send(input, [message])));
    await eventually('600 applied', async () => (await appliedSummary(dataSource)).rows === 600);

    // Rewind the group to the beginning: only the Postgres checkpoint may decide what was applied.
    await runtime.stop();
    await suite.admin.resetOffsets({ groupId: name, topic: input, earliest: true });
    runtime = runtimeFor(dataSource, name, input, facts, relay);
    await runtime.start();
    await suite.producer.send(
      input,
      Array.from({ length: 10 }, (_, seq) => counterMessage('late', 600 + seq, 1)),
    );
    await eventually('610 applied', async () => (await appliedSummary(dataSource)).rows === 610);
    await new Promise((resolve) => setTimeout(resolve, 1000));

    expect(await appliedSummary(dataSource)).toEqual({ rows: 610, maxTimes: 1, total: 1210 });
    const published = await readTopic(facts, 610);
    expect(new Set(published.map((record) => record.value.type))).toEqual(new Set([COUNTED_TYPE]));
    expect(new Set(published.map((record) => record.id)).size).toBe(610);
    await runtime.stop();
    await relay.stop();
  });

  it('dead-letters a poison record and goes on with the rest of its partition', async () => {
    const { input, facts } = await freshTopics(1);
    const { dataSource } = await freshSchema();
    const name = uniqueName('poison');
    const runtime = runtimeFor(dataSource, name, input, facts);
    await runtime.start();

    const invalid = counterMessage('p', 3);
    const parsed = JSON.parse(String(invalid.value)) as { data: { amount: number } };
    parsed.data.amount = -5;
    await suite.producer.send(input, [
      counterMessage('p', 1, 1),
      { key: 'p', value: '{not json', headers: { ce_type: 'test.counter.incremented' } },
      { key: 'p', value: JSON.stringify(parsed), headers: { ce_type: 'test.counter.incremented' } },
      counterMessage('p', 4, POISON_AMOUNT),
      counterMessage('p', 5, CRASH_AMOUNT),
      counterMessage('p', 6, 1),
    ]);
    await eventually(
      'the last record applied',
      async () => (await appliedSummary(dataSource)).rows === 2,
      30000,
    );

    const letters: Array<{ offset: string; reason: string; detail: string }> = await dataSource.query(
      'SELECT "offset"::text AS offset, reason, detail FROM dead_letters WHERE consumer = $1 ORDER BY "offset"',
      [name],
    );
    expect(letters.map((letter) => [letter.offset, letter.reason])).toEqual([
      ['1', 'malformed'],
      ['2', 'invalid_data'],
      ['3', 'refused_amount'],
      ['4', 'handler_failed'],
    ]);
    expect(letters[1]!.detail).toMatch(/amount/);
    const checkpoints = await dataSource.query(
      'SELECT topic, partition, next_offset::int AS next_offset FROM consumer_checkpoints WHERE consumer = $1',
      [name],
    );
    expect(checkpoints).toEqual([{ topic: input, partition: 0, next_offset: 6 }]);
    expect(await appliedSummary(dataSource)).toEqual({ rows: 2, maxTimes: 1, total: 2 });
    await runtime.stop();
  });
});

describe('a consumer process killed at random points', () => {
  function startWorker(env: Record<string, string>): ChildProcess {
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', join(__dirname, 'fixtures', 'counter-worker.ts')],
      {
        cwd: WORKSPACE_ROOT,
        env: { ...process.env, ...env, SWC_NODE_PROJECT: join(WORKSPACE_ROOT, 'tsconfig.json') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      if (process.env.TEST_LOG_LEVEL) process.stderr.write(chunk);
    });
    return child;
  }

  function kill(child: ChildProcess): Promise<void> {
    return new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  it('leaves every record applied exactly once and every fact published', async () => {
    const { input, facts } = await freshTopics(3);
    const { schema, dataSource } = await freshSchema();
    const name = uniqueName('crashy');
    const env = {
      WORKER_SCHEMA: schema,
      WORKER_NAME: name,
      WORKER_TOPIC: input,
      WORKER_FACTS_TOPIC: facts,
      KAFKA_BROKERS: suite.stack.kafkaBrokers.join(','),
      DATABASE_URL: suite.stack.databaseUrl,
      WORKER_CHUNK: '25',
    };
    const total = 3000;
    let worker = startWorker(env);
    let produced = 0;
    const producing = (async () => {
      while (produced < total) {
        const batch = Array.from({ length: 50 }, (_, i) =>
          counterMessage(`k${(produced + i) % 11}`, produced + i, 1),
        );
        await suite.producer.send(input, batch);
        produced += batch.length;
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    })();

    let kills = 0;
    const random = (min: number, max: number): number => min + Math.floor(Math.random() * (max - min));
    while (kills < 6) {
      await new Promise((resolve) => setTimeout(resolve, random(1500, 3500)));
      await kill(worker);
      kills += 1;
      worker = startWorker(env);
    }
    await producing;
    await eventually(
      `${total} applied`,
      async () => (await appliedSummary(dataSource)).rows === total,
      120000,
      250,
    );
    const summary = await appliedSummary(dataSource);
    const published = await readTopic(facts, total);
    await kill(worker);

    expect(kills).toBe(6);
    expect(summary).toEqual({ rows: total, maxTimes: 1, total });
    const seqs = new Set(published.map((record) => (record.value.data as { seq: number }).seq));
    expect(seqs.size).toBe(total);
  }, 240000);
});

describe('the outbox relay', () => {
  it('publishes every row in commit order per writer and picks up where it stopped after a restart', async () => {
    const { facts } = await freshTopics(1);
    const { schema, dataSource } = await freshSchema();
    const writers = 8;
    const perWriter = 60;

    let relay = new OutboxRelay({
      dataSource,
      databaseUrl: suite.stack.databaseUrl,
      schema,
      producer: suite.producer,
      logger: suite.logger,
      pollMs: 20,
      batchSize: 50,
    });
    relay.start();
    let restarted = false;
    const write = async (writer: number): Promise<void> => {
      for (let seq = 0; seq < perWriter; seq += 1) {
        await dataSource.transaction(async (manager) => {
          const envelope = createEnvelope({
            type: 'test.outbox.row',
            source: 'test',
            workspaceid: `w${writer}`,
            data: { writer, seq },
          });
          await appendToOutbox(manager, [envelopeRecord(facts, envelope)]);
          // Hold the transaction open a random while so that commits interleave.
          await manager.query('SELECT pg_sleep($1)', [Math.random() * 0.01]);
        });
        if (writer === 0 && seq === perWriter / 2 && !restarted) {
          restarted = true;
          await relay.stop();
          relay = new OutboxRelay({
            dataSource,
            databaseUrl: suite.stack.databaseUrl,
            schema,
            producer: suite.producer,
            logger: suite.logger,
            pollMs: 20,
            batchSize: 50,
          });
          relay.start();
        }
      }
    };
    await Promise.all(Array.from({ length: writers }, (_, writer) => write(writer)));
    const published = await readTopic(facts, writers * perWriter);
    await eventually('outbox drained', async () => (await relay.backlog()) === 0);
    await relay.stop();

    expect(restarted).toBe(true);
    expect(published).toHaveLength(writers * perWriter);
    for (let writer = 0; writer < writers; writer += 1) {
      const seqs = published
        .map((record) => record.value.data as { writer: number; seq: number })
        .filter((data) => data.writer === writer)
        .map((data) => data.seq);
      expect(seqs).toEqual(Array.from({ length: perWriter }, (_, seq) => seq));
    }
  });

  it('lets only one replica relay a schema at a time and hands over when it stops', async () => {
    const { schema, dataSource } = await freshSchema();
    const a = new OutboxRelay({
      dataSource,
      databaseUrl: suite.stack.databaseUrl,
      schema,
      producer: suite.producer,
      logger: suite.logger,
      pollMs: 20,
      standbyMs: 50,
    });
    const b = new OutboxRelay({
      dataSource,
      databaseUrl: suite.stack.databaseUrl,
      schema,
      producer: suite.producer,
      logger: suite.logger,
      pollMs: 20,
      standbyMs: 50,
    });
    a.start();
    await eventually('a leads', async () => a.isLeader);
    b.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(b.isLeader).toBe(false);
    await a.stop();
    await eventually('b takes over', async () => b.isLeader);
    await b.stop();
  });
});
