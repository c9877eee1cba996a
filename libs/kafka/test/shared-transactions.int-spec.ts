import { createEnvelope } from '@cms/contracts';
import { eventually, uniqueName } from '@cms/testing';
import type { Message } from 'kafkajs';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';

import { ConsumerRuntime, type ConsumerRuntimeOptions } from '../src';
import {
  COUNTER_ENTITIES,
  COUNTER_MIGRATIONS,
  COUNTER_TYPE,
  counterConsumer,
  counterMessage,
  POISON_AMOUNT,
} from './fixtures/counter';
import { useKafkaSuite } from './fixtures/kafka-suite';

/**
 * The batches of the partitions one fetch brings share a transaction, and a consumer that owns none
 * of a chunk's records reads past it without one, storing that checkpoint later. Neither may cost a
 * record its exactly-once application.
 */
const suite = useKafkaSuite('shared-transactions-test');

/** A record of a type the counter consumer does not apply (another service's request, say). */
const OTHER_TYPE = 'test.other.noted';

function otherMessage(partition: number, seq: number): Message {
  const envelope = createEnvelope({ type: OTHER_TYPE, source: 'test', workspaceid: 'w', data: { seq } });
  return { partition, key: 'w', value: JSON.stringify(envelope), headers: { ce_type: OTHER_TYPE } };
}

function counterAt(partition: number, seq: number, amount = 1): Message {
  return { ...counterMessage(`p${partition}`, seq, amount), partition };
}

interface Started {
  runtime: ConsumerRuntime;
  name: string;
  input: string;
  metrics: Registry;
}

async function start(
  dataSource: DataSource,
  input: string,
  options: Partial<ConsumerRuntimeOptions> = {},
): Promise<Started> {
  const [facts] = await suite.topics({ prefix: 'shared-facts', partitions: 1 });
  const name = uniqueName('shared');
  const metrics = new Registry();
  const runtime = new ConsumerRuntime({
    ...counterConsumer(suite, dataSource, name, input, facts!),
    metrics,
    accepts: (type) => type === COUNTER_TYPE,
    ...options,
  });
  await runtime.start();
  return { runtime, name, input, metrics };
}

async function appliedSeqs(dataSource: DataSource): Promise<Array<{ seq: number; times: number }>> {
  return dataSource.query('SELECT seq, times FROM applied ORDER BY seq');
}

async function checkpoints(
  dataSource: DataSource,
  name: string,
): Promise<Array<{ partition: number; next: number; updated: string }>> {
  return dataSource.query(
    `SELECT partition, next_offset::int AS next, updated_at::text AS updated
       FROM consumer_checkpoints WHERE consumer = $1 ORDER BY partition`,
    [name],
  );
}

/**
 * Sends records the consumer does not apply and waits until it has read past them. The consumer
 * fetches nothing before it has sought to its stored checkpoints, so it never reads its first records
 * a second time (a second reading would be applied in a transaction, storing the checkpoint).
 */
async function readPast(metrics: Registry, input: string, messages: Message[]): Promise<void> {
  const before = await skippedCount(metrics);
  await suite.producer.send(input, messages);
  await eventually(
    'the records read past',
    async () => (await skippedCount(metrics)) >= before + messages.length,
  );
}

async function skippedCount(metrics: Registry): Promise<number> {
  const metric = await metrics.getSingleMetric('cms_records_processed_total')?.get();
  return (metric?.values ?? [])
    .filter((value) => value.labels.result === 'skipped')
    .reduce((sum, value) => sum + value.value, 0);
}

/** What Postgres looks like after losing the commits that applied `from` and everything after it. */
async function forgetFrom(dataSource: DataSource, name: string, from: number): Promise<void> {
  await dataSource.transaction(async (manager) => {
    await manager.query('DELETE FROM applied WHERE seq >= $1', [from]);
    await manager.query('UPDATE consumer_checkpoints SET next_offset = $2 WHERE consumer = $1', [name, from]);
  });
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a consumer applying the partitions of a fetch together', () => {
  it('applies the batches of many partitions in one transaction, each record once', async () => {
    const { dataSource } = await suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
    const [input] = await suite.topics({ prefix: 'shared-in', partitions: 8 });
    // Waiting in the log before the consumer starts: its first fetch brings all eight partitions.
    await suite.producer.send(
      input!,
      range(0, 8).flatMap((partition) => range(0, 10).map((i) => counterAt(partition, partition * 10 + i))),
    );
    const { runtime, name } = await start(dataSource, input!);
    try {
      await eventually('80 applied', async () => (await appliedSeqs(dataSource)).length === 80);
      expect(await appliedSeqs(dataSource)).toEqual(range(0, 80).map((seq) => ({ seq, times: 1 })));
      const rows = await checkpoints(dataSource, name);
      expect(rows.map((row) => row.next)).toEqual(range(0, 8).map(() => 10));
      // now() is the time its transaction began: one value for rows moved by one transaction.
      expect(new Set(rows.map((row) => row.updated)).size).toBeLessThanOrEqual(2);
    } finally {
      await runtime.stop();
    }
  });

  it('dead-letters the bad record of one partition and applies every other record once', async () => {
    const { dataSource } = await suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
    const [input] = await suite.topics({ prefix: 'shared-poison', partitions: 4 });
    await suite.producer.send(
      input!,
      range(0, 4).flatMap((partition) =>
        range(0, 5).map((i) =>
          counterAt(partition, partition * 5 + i, partition === 2 && i === 2 ? POISON_AMOUNT : 1),
        ),
      ),
    );
    const { runtime, name } = await start(dataSource, input!);
    try {
      await eventually('every partition through', async () => {
        const rows = await checkpoints(dataSource, name);
        return rows.length === 4 && rows.every((row) => row.next === 5);
      });
      expect(await appliedSeqs(dataSource)).toEqual(
        range(0, 20)
          .filter((seq) => seq !== 12)
          .map((seq) => ({ seq, times: 1 })),
      );
      const dead: Array<{ partition: number; offset: string; reason: string }> = await dataSource.query(
        'SELECT partition, "offset"::text AS offset, reason FROM dead_letters',
      );
      expect(dead).toEqual([{ partition: 2, offset: '2', reason: 'refused_amount' }]);
      const [counter] = (await dataSource.query('SELECT sum(total)::int AS total FROM counters')) as [
        { total: number },
      ];
      expect(counter.total).toBe(19);
    } finally {
      await runtime.stop();
    }
  });
});

describe('a consumer reading past records it does not apply', () => {
  it('stores their checkpoint about once a second instead of once a batch', async () => {
    const { dataSource } = await suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
    const [input] = await suite.topics({ prefix: 'lazy-in', partitions: 1 });
    const { runtime, name } = await start(dataSource, input!);
    try {
      const seen = new Set<string>();
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          for (const row of await checkpoints(dataSource, name)) seen.add(row.updated);
          await sleep(20);
        }
      })();
      // 60 records over about 1.5 s (on an idle machine), each fetched on its own.
      const from = Date.now();
      for (const seq of range(0, 60)) {
        await suite.producer.send(input!, [otherMessage(0, seq)]);
        await sleep(25);
      }
      await eventually(
        'the checkpoint at the end',
        async () => (await checkpoints(dataSource, name))[0]?.next === 60,
        10000,
      );
      sampling = false;
      await sampler;
      const spanMs = Date.now() - from;
      // About once a second however long the records took to come on this machine, not once a batch.
      expect({ stored: seen.size, spanMs, within: seen.size <= 2 + Math.ceil(spanMs / 1000) }).toEqual({
        stored: seen.size,
        spanMs,
        within: true,
      });
      expect(await appliedSeqs(dataSource)).toEqual([]);
    } finally {
      await runtime.stop();
    }
  });

  it('stores the checkpoint of what it read past when it stops', async () => {
    const { dataSource } = await suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
    const [input] = await suite.topics({ prefix: 'lazy-stop', partitions: 1 });
    const { runtime, name, metrics } = await start(dataSource, input!, { lazyCheckpointMs: 60000 });
    try {
      await suite.producer.send(input!, [counterAt(0, 0)]);
      await eventually('the first applied', async () => (await appliedSeqs(dataSource)).length === 1);
      await readPast(
        metrics,
        input!,
        range(1, 11).map((seq) => otherMessage(0, seq)),
      );
      expect((await checkpoints(dataSource, name))[0]?.next).toBe(1);
    } finally {
      await runtime.stop();
    }
    expect((await checkpoints(dataSource, name))[0]?.next).toBe(11);
  });

  it('applies again what Postgres lost below records it read past, when its next record comes', async () => {
    const { dataSource } = await suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
    const [input] = await suite.topics({ prefix: 'lazy-lost', partitions: 1 });
    const { runtime, name, metrics } = await start(dataSource, input!, { lazyCheckpointMs: 60000 });
    try {
      await suite.producer.send(
        input!,
        range(0, 5).map((seq) => counterAt(0, seq)),
      );
      await eventually('5 applied', async () => (await appliedSeqs(dataSource)).length === 5);
      await readPast(
        metrics,
        input!,
        range(5, 15).map((seq) => otherMessage(0, seq)),
      );

      await forgetFrom(dataSource, name, 3);
      await suite.producer.send(input!, [counterAt(0, 15)]);

      await eventually(
        'the lost records and the new one applied',
        async () => (await appliedSeqs(dataSource)).length === 6,
        30000,
      );
      expect(await appliedSeqs(dataSource)).toEqual([0, 1, 2, 3, 4, 15].map((seq) => ({ seq, times: 1 })));
      expect((await checkpoints(dataSource, name))[0]?.next).toBe(16);
    } finally {
      await runtime.stop();
    }
  });

  it('applies again what Postgres lost below records it read past, when it stores their checkpoint', async () => {
    const { dataSource } = await suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
    const [input] = await suite.topics({ prefix: 'lazy-flush', partitions: 1 });
    const { runtime, name } = await start(dataSource, input!, { lazyCheckpointMs: 300 });
    try {
      await suite.producer.send(
        input!,
        range(0, 5).map((seq) => counterAt(0, seq)),
      );
      await eventually('5 applied', async () => (await appliedSeqs(dataSource)).length === 5);

      await forgetFrom(dataSource, name, 3);
      await suite.producer.send(
        input!,
        range(5, 15).map((seq) => otherMessage(0, seq)),
      );

      await eventually(
        'the lost records applied again and the checkpoint at the end',
        async () =>
          (await appliedSeqs(dataSource)).length === 5 &&
          (await checkpoints(dataSource, name))[0]?.next === 15,
        30000,
      );
      expect(await appliedSeqs(dataSource)).toEqual(range(0, 5).map((seq) => ({ seq, times: 1 })));
    } finally {
      await runtime.stop();
    }
  });
});
