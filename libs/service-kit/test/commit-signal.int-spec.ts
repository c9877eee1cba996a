import { createDataSource, dropSchema, migrate } from '@cms/persistence';
import { eventually, testStack, uniqueName } from '@cms/testing';
import pino from 'pino';
import type { DataSource } from 'typeorm';

import { PolledWorker, signalOnCommit } from '../src';

/**
 * A worker that polls rarely is woken by the commit of a transaction that signals it (a NOTIFY,
 * delivered on commit only), and listens again after its session is lost.
 */
const SIGNAL = 'test_due';

class CountingWorker extends PolledWorker {
  turns = 0;

  constructor(databaseUrl: string, schema: string) {
    super({
      concurrency: 1,
      // Far longer than any wait below: only a signal can start a turn in time.
      pollMs: 600_000,
      logger: pino({ level: 'silent' }),
      wakeOn: { databaseUrl, schema, signal: SIGNAL },
    });
  }

  protected async turn(): Promise<boolean> {
    this.turns += 1;
    return false;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let dataSource: DataSource;
let schema: string;
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = (await testStack()).databaseUrl;
  schema = uniqueName('commit_signal');
  dataSource = createDataSource({
    url: databaseUrl,
    schema,
    applicationName: 'commit-signal-test',
    entities: [],
    migrations: [],
  });
  await dataSource.initialize();
  await migrate(dataSource);
});

afterAll(async () => {
  await dropSchema(dataSource);
  await dataSource.destroy();
});

describe('a polled worker woken by a commit signal', () => {
  it('turns when a transaction that signalled commits, not when one rolls back, and after its session is lost', async () => {
    const worker = new CountingWorker(databaseUrl, schema);
    worker.start();
    try {
      // The first turn, then one as the listener starts listening (anything signalled before is looked for).
      await eventually('listening', async () => worker.turns >= 2, 10_000);
      await sleep(200);
      const settled = worker.turns;

      await dataSource
        .transaction(async (manager) => {
          await signalOnCommit(manager, SIGNAL);
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      await sleep(500);
      expect(worker.turns).toBe(settled);

      await dataSource.transaction((manager) => signalOnCommit(manager, SIGNAL));
      await eventually('a turn after the commit', async () => worker.turns > settled, 10_000);

      const afterCommit = worker.turns;
      await dataSource.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [`${schema}-${SIGNAL}`],
      );
      // Listening again, it looks once for what it may have missed, and is woken by signals as before.
      await eventually('listening again', async () => worker.turns > afterCommit, 10_000);
      await sleep(200);
      const relistened = worker.turns;
      await dataSource.transaction((manager) => signalOnCommit(manager, SIGNAL));
      await eventually('a turn after the next commit', async () => worker.turns > relistened, 10_000);
    } finally {
      await worker.stop();
    }
  });
});
