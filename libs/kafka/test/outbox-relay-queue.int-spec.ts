import { eventually } from '@cms/testing';

import { useKafkaSuite } from './fixtures/kafka-suite';
import { appendSeqs, readSeqs, relayPlumbing } from './fixtures/outbox-rows';

/**
 * The outbox is a queue: every row is deleted soon after it is written. The relay reads above the last
 * row it deleted (never through the dead rows at the start of the index) and vacuums the table itself
 * as it deletes, whether or not autovacuum runs, without losing, repeating or reordering a record.
 */
const suite = useKafkaSuite('outbox-relay-queue-test');

describe('an outbox relay keeping its queue small', () => {
  it('vacuums the outbox as it deletes what it published, and publishes every row once, in order', async () => {
    const { topic, schema, dataSource } = await relayPlumbing(suite, 'queue');
    const vacuums = async (): Promise<number> => {
      const [row] = (await dataSource.query(
        `SELECT vacuum_count::int AS count FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'outbox'`,
        [schema],
      )) as Array<{ count: number }>;
      return row?.count ?? 0;
    };
    const relay = suite.relay(schema, dataSource, { vacuumAfterRows: 100, batchSize: 60 });
    relay.start();
    try {
      for (let batch = 0; batch < 8; batch += 1) {
        await appendSeqs(dataSource, topic, batch * 50, 50);
        // Some batches land while the last vacuum may still run, some on an empty outbox.
        if (batch % 2 === 1) await eventually('drained', async () => (await relay.backlog()) === 0, 15000);
      }
      await eventually('the outbox drained', async () => (await relay.backlog()) === 0, 15000);
      expect(relay.publishedCount).toBe(400);
      await eventually('the relay vacuumed the outbox', async () => (await vacuums()) >= 2, 15000);
      const [dead] = (await dataSource.query(
        `SELECT n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'outbox'`,
        [schema],
      )) as Array<{ dead: number }>;
      // At most what was deleted since the last vacuum.
      expect(dead!.dead).toBeLessThan(200);

      expect(await readSeqs(suite, topic, 400)).toEqual(Array.from({ length: 400 }, (_, seq) => seq));
    } finally {
      await relay.stop();
    }
  });
});
