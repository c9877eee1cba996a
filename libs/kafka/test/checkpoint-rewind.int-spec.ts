import { eventually, uniqueName } from '@cms/testing';
import type { DataSource } from 'typeorm';

import { ConsumerRuntime } from '../src';
import { COUNTER_ENTITIES, COUNTER_MIGRATIONS, counterConsumer, counterMessage } from './fixtures/counter';
import { useKafkaSuite } from './fixtures/kafka-suite';

/**
 * Postgres may forget its last commits: a crash with commits not yet flushed (synchronous_commit off), a
 * failover to a replica that lagged. The projection and its checkpoint go back together, consistently;
 * the consumer, which had read on past them, must read those records again rather than skip them.
 */
const suite = useKafkaSuite('checkpoint-rewind-test');

async function start(
  dataSource: DataSource,
): Promise<{ input: string; runtime: ConsumerRuntime; name: string }> {
  const [input, facts] = await suite.topics(
    { prefix: 'rewind-in', partitions: 1 },
    { prefix: 'rewind-facts', partitions: 1 },
  );
  const name = uniqueName('rewind');
  const runtime = new ConsumerRuntime(counterConsumer(suite, dataSource, name, input!, facts!));
  await runtime.start();
  return { input: input!, runtime, name };
}

async function send(input: string, seqs: number[]): Promise<void> {
  await suite.producer.send(
    input,
    seqs.map((seq) => counterMessage('c', seq)),
  );
}

async function appliedSeqs(dataSource: DataSource): Promise<Array<{ seq: number; times: number }>> {
  return dataSource.query('SELECT seq, times FROM applied ORDER BY seq');
}

/** What Postgres looks like after losing the commits that applied `from` and everything after it. */
async function forgetFrom(dataSource: DataSource, name: string, from: number): Promise<void> {
  await dataSource.transaction(async (manager) => {
    const [{ lost }] = (await manager.query(
      'WITH gone AS (DELETE FROM applied WHERE seq >= $1 RETURNING 1) SELECT count(*)::int AS lost FROM gone',
      [from],
    )) as [{ lost: number }];
    await manager.query('UPDATE counters SET total = total - $1', [lost]);
    await manager.query('UPDATE consumer_checkpoints SET next_offset = $2 WHERE consumer = $1', [name, from]);
  });
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('when Postgres loses the last commits of a consumer', () => {
  it('reads the partition again from the stored checkpoint and applies every record exactly once', async () => {
    const { dataSource } = await suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
    const { input, runtime, name } = await start(dataSource);
    try {
      await send(input, range(0, 10));
      await eventually('10 applied', async () => (await appliedSeqs(dataSource)).length === 10);

      await forgetFrom(dataSource, name, 5);
      await send(input, range(10, 15));

      await eventually(
        'all 15 applied again',
        async () => (await appliedSeqs(dataSource)).length === 15,
        30000,
      );
      expect(await appliedSeqs(dataSource)).toEqual(range(0, 15).map((seq) => ({ seq, times: 1 })));
      const [counter] = (await dataSource.query('SELECT total::int AS total FROM counters')) as [
        { total: number },
      ];
      expect(counter.total).toBe(15);
    } finally {
      await runtime.stop();
    }
  });

  it('goes on past the checkpoint when the log itself no longer has the records there', async () => {
    const { dataSource } = await suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
    const { input, runtime, name } = await start(dataSource);
    try {
      await send(input, range(0, 10));
      await eventually('10 applied', async () => (await appliedSeqs(dataSource)).length === 10);

      await forgetFrom(dataSource, name, 5);
      // Retention took the records from offset 5 to 7 away. (kafkajs finds the leader from metadata.)
      await suite.admin.fetchTopicMetadata({ topics: [input] });
      await suite.admin.deleteTopicRecords({ topic: input, partitions: [{ partition: 0, offset: '8' }] });
      await send(input, range(10, 12));

      await eventually(
        'the records still in the log applied',
        async () => (await appliedSeqs(dataSource)).length === 9,
        30000,
      );
      expect(await appliedSeqs(dataSource)).toEqual(
        [...range(0, 5), ...range(8, 12)].map((seq) => ({ seq, times: 1 })),
      );
    } finally {
      await runtime.stop();
    }
  });
});
