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
        `SELECT n_dead_tup::int AS dead,
                (SELECT count(*)::int FROM pg_stat_activity
                  WHERE backend_xmin IS NOT NULL AND pid <> pg_backend_pid()) AS snapshots
           FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'outbox'`,
        [schema],
      )) as Array<{ dead: number; snapshots: number }>;
      // At most what was deleted since the last vacuum, unless another session's snapshot (another
      // suite's transaction on a shared server) keeps vacuum from removing the rows: it still ran.
      if (dead!.snapshots === 0) expect(dead!.dead).toBeLessThan(200);

      expect(await readSeqs(suite, topic, 400)).toEqual(Array.from({ length: 400 }, (_, seq) => seq));
    } finally {
      await relay.stop();
    }
  });

  it('publishes rows whose ids a restarted database hands out again, after a crash lost its last commits', async () => {
    const { topic, schema, dataSource } = await relayPlumbing(suite, 'rewound');
    const relay = suite.relay(schema, dataSource);
    relay.start();
    try {
      await appendSeqs(dataSource, topic, 0, 50);
      await eventually('the outbox drained', async () => (await relay.backlog()) === 0, 15000);
      // What a server that restarts without its last commits (synchronous_commit=off), or a replica
      // promoted behind its primary, does: the sequence goes back below ids the relay has seen, and
      // every session ends.
      await dataSource.query(`SELECT setval(pg_get_serial_sequence('"${schema}".outbox', 'id'), 1, false)`);
      await dataSource.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [`${schema}-outbox-relay`],
      );
      await appendSeqs(dataSource, topic, 50, 30);
      await eventually('the outbox drained again', async () => (await relay.backlog()) === 0, 15000);
      expect(await readSeqs(suite, topic, 80)).toEqual(Array.from({ length: 80 }, (_, seq) => seq));
    } finally {
      await relay.stop();
    }
  });
});
