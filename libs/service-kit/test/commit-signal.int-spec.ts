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

/**
 * A worker whose work has due times: it sleeps until the earliest is due (nextDueAt), is woken by the
 * commit that adds work, and without any signal (its listener cannot listen) still does everything at
 * its safety poll, each job once.
 */
class JobWorker extends PolledWorker {
  constructor(
    private readonly dataSource: DataSource,
    options: { databaseUrl: string; schema: string; pollMs: number },
  ) {
    super({
      concurrency: 1,
      pollMs: options.pollMs,
      logger: pino({ level: 'silent' }),
      wakeOn: { databaseUrl: options.databaseUrl, schema: options.schema, signal: JOB_SIGNAL },
    });
  }

  protected async turn(): Promise<boolean> {
    await this.dataSource.query(
      `UPDATE test_jobs SET done_at = clock_timestamp(), turns = turns + 1 WHERE due_at <= now() AND done_at IS NULL`,
    );
    return false;
  }

  protected override async nextDueAt(): Promise<number | undefined> {
    const rows: Array<{ at: number | null }> = await this.dataSource.query(
      'SELECT (extract(epoch FROM min(due_at)) * 1000)::float8 AS at FROM test_jobs WHERE done_at IS NULL',
    );
    return rows[0]?.at ?? undefined;
  }
}

const JOB_SIGNAL = 'test_jobs';

interface JobRow {
  id: number;
  due_at: Date;
  done_at: Date | null;
  turns: number;
}

async function addJob(dueInMs: number): Promise<number> {
  return dataSource.transaction(async (manager) => {
    const rows: Array<{ id: number }> = await manager.query(
      `INSERT INTO test_jobs (due_at) VALUES (now() + $1::float8 * interval '1 millisecond') RETURNING id`,
      [dueInMs],
    );
    await signalOnCommit(manager, JOB_SIGNAL);
    return rows[0]!.id;
  });
}

async function job(id: number): Promise<JobRow> {
  const rows: JobRow[] = await dataSource.query('SELECT * FROM test_jobs WHERE id = $1', [id]);
  return rows[0]!;
}

describe('a polled worker with due times', () => {
  beforeAll(async () => {
    await dataSource.query(
      `CREATE TABLE test_jobs (id serial PRIMARY KEY, due_at timestamptz NOT NULL,
         done_at timestamptz, turns int NOT NULL DEFAULT 0)`,
    );
  });

  it('sleeps until the earliest job is due, never past it for the poll, and is woken by a new earlier one', async () => {
    // A poll far longer than the test: only the due times and the commit signal can start the turns.
    const worker = new JobWorker(dataSource, { databaseUrl, schema, pollMs: 600_000 });
    worker.start();
    try {
      const later = await addJob(1500);
      // Added while the worker sleeps towards the first one: its commit wakes the worker, which then
      // sleeps towards this one, due sooner.
      await sleep(200);
      const sooner = await addJob(300);
      const done = await eventually(
        'both jobs done',
        async () => {
          const rows = [await job(sooner), await job(later)];
          return rows.every((row) => row.done_at !== null) ? rows : undefined;
        },
        30_000,
      );
      for (const row of done) {
        expect(row.turns).toBe(1);
        // Never before its time.
        expect(row.done_at!.getTime()).toBeGreaterThanOrEqual(row.due_at.getTime());
      }
      expect(done[0]!.done_at!.getTime()).toBeLessThan(done[1]!.done_at!.getTime());
    } finally {
      await worker.stop();
    }
  });

  it('does the work of lost signals at its safety poll, each job once', async () => {
    // Its listener can never listen (nothing answers on port 1): every signal is lost.
    const worker = new JobWorker(dataSource, {
      databaseUrl: 'postgres://postgres@127.0.0.1:1/none',
      schema,
      pollMs: 1000,
    });
    worker.start();
    try {
      const ids = [await addJob(0), await addJob(0), await addJob(200)];
      const rows = await eventually(
        'the jobs done by the safety poll',
        async () => {
          const found = await Promise.all(ids.map((id) => job(id)));
          return found.every((row) => row.done_at !== null) ? found : undefined;
        },
        30_000,
      );
      expect(rows.map((row) => row.turns)).toEqual([1, 1, 1]);
    } finally {
      await worker.stop();
    }
  });
});
