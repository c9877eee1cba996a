import { eventually } from '@cms/testing';
import { Client } from 'pg';
import pino from 'pino';
import type { DataSource } from 'typeorm';

import { OutboxRelay, outboxChannel } from '../src';
import { COUNTER_ENTITIES, COUNTER_MIGRATIONS } from './fixtures/counter';
import { useKafkaSuite } from './fixtures/kafka-suite';

/**
 * A relay that cannot publish (its database is away, or another replica is the leader) waits between
 * tries, whatever commit notifications arrive meanwhile: it must not spin on the database or the CPU.
 */
const suite = useKafkaSuite('outbox-relay-idle-test');

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function relayOn(dataSource: DataSource, schema: string, databaseUrl: string, lines: string[]): OutboxRelay {
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push((JSON.parse(line) as { msg: string }).msg) },
  );
  return new OutboxRelay({
    dataSource,
    databaseUrl,
    schema,
    producer: suite.producer,
    logger,
    pollMs: 50,
    standbyMs: 2000,
  });
}

describe('an outbox relay that cannot publish', () => {
  it('retries about once a second while its database refuses connections, even after a kick', async () => {
    const { schema, dataSource } = await suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
    const lines: string[] = [];
    // Nothing listens on port 1: every connection is refused at once, as while Postgres restarts.
    const relay = relayOn(dataSource, schema, 'postgres://postgres@127.0.0.1:1/cms', lines);
    const failures = () => lines.filter((msg) => msg === 'outbox relay failed; retrying').length;
    const startedAt = Date.now();
    relay.kick();
    relay.start();
    await eventually('a second try', async () => failures() >= 2, 30000, 50);
    await delay(Math.max(0, startedAt + 2500 - Date.now()));
    await relay.stop(0);
    const spanMs = Date.now() - startedAt;

    // Tries at the start (the kick's among them) and one a second at most after, however long the span
    // took on this machine.
    const tries = failures();
    expect(tries).toBeGreaterThanOrEqual(2);
    expect({ tries, spanMs, within: tries <= 2 + Math.floor(spanMs / 1000) }).toEqual({
      tries,
      spanMs,
      within: true,
    });
  });

  it('stays on standby at its own pace while the leader commits, however many notifications arrive', async () => {
    const { schema, dataSource } = await suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
    const leader = relayOn(dataSource, schema, suite.stack.databaseUrl, []);
    leader.start();
    await eventually('a leader', async () => leader.isLeader);
    const standby = relayOn(dataSource, schema, suite.stack.databaseUrl, []);
    standby.start();
    const observer = new Client({ connectionString: suite.stack.databaseUrl });
    await observer.connect();
    try {
      // Both sessions are named alike; the standby's is the one that is not the leader's backend.
      const sessions = async () =>
        (
          await observer.query<{ pid: number; query_start: Date }>(
            `SELECT pid, query_start FROM pg_stat_activity WHERE application_name = $1`,
            [`${schema}-outbox-relay`],
          )
        ).rows;
      await eventually('both relays connected', async () => (await sessions()).length === 2);
      await delay(300);
      const starts = new Map<number, Set<number>>();
      const from = Date.now();
      for (let i = 0; i < 10; i += 1) {
        await observer.query(`SELECT pg_notify($1, '')`, [outboxChannel(schema)]);
        for (const { pid, query_start } of await sessions()) {
          starts.set(pid, (starts.get(pid) ?? new Set()).add(query_start.getTime()));
        }
        await delay(100);
      }
      const spanMs = Date.now() - from;
      // Over the ten notifications (a second, on an idle machine) the standby tries for the lock once every
      // 2 s, not once per notification: the query it was running before them, and one for each 2 s they
      // took. The leader runs nothing more on its session.
      const standbyQueries = Math.max(...[...starts.values()].map((set) => set.size));
      expect({ standbyQueries, spanMs, within: standbyQueries <= 1 + Math.ceil(spanMs / 2000) }).toEqual({
        standbyQueries,
        spanMs,
        within: true,
      });
      expect(standby.isLeader).toBe(false);
    } finally {
      await observer.end();
      await standby.stop(0);
      await leader.stop(0);
    }
  });
});
