import { createEnvelope } from '@cms/contracts';
import type { KafkaMessage } from 'kafkajs';

import {
  FakePostgres,
  kafkaMessage,
  NOTE_TYPE,
  noteEnvelope,
  recordingLogger,
} from '../../test/fixtures/consumer-fakes';
import { CheckpointStore, type SkippedRun } from './checkpoint-store';
import type { Member, Outcome, TransactionRunner } from './transaction-runner';
import {
  EXPRESS_BEHIND,
  EXPRESS_RECORDS,
  fetchSettings,
  GATHERING_FETCH,
  longPoll,
  TransactionScheduler,
  type Fallback,
  type TransactionSchedulerOptions,
} from './transaction-scheduler';

interface Held {
  members: Member[];
  extras: SkippedRun[];
  settle(result: boolean | Error): void;
}

/** Transactions that stay under way until the test settles them. */
class HeldTransactions implements Pick<TransactionRunner, 'run'> {
  readonly held: Held[] = [];

  run(members: Member[], extras: SkippedRun[] = []): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.held.push({
        members,
        extras,
        settle: (result) => (result instanceof Error ? reject(result) : resolve(result)),
      });
    });
  }
}

const other = createEnvelope({ type: 'test.other.noted', source: 'test', workspaceid: 'w1', data: {} });

/** A chunk of `size` records of a partition from `from` on: notes, or records of another service's type. */
function chunk(partition: number, size: number, { from = 0, notes = true } = {}): Member {
  const messages: KafkaMessage[] = Array.from({ length: size }, (_, index) =>
    kafkaMessage(from + index, notes ? noteEnvelope(index) : other),
  );
  return { topic: 'in', partition, messages, reject: new Map() };
}

/** The partitions of a fetch are handed over within one turn of the event loop; this waits for it. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

function setUp(options: Partial<TransactionSchedulerOptions> = {}) {
  const { logger, lines } = recordingLogger();
  const transactions = new HeldTransactions();
  const checkpoints = new CheckpointStore('notes', new FakePostgres().dataSource);
  const readPast: Array<[string, number]> = [];
  const scheduler = new TransactionScheduler({ logger, ...options }, transactions, checkpoints, {
    readPast: (topic, count) => void readPast.push([topic, count]),
  });
  const answers: Array<Outcome | Fallback> = [];
  const submit = (member: Member, active = () => true) =>
    scheduler.submit(member, active).then((answer) => void answers.push(answer));
  return { transactions, checkpoints, scheduler, readPast, answers, submit, lines };
}

const sizes = (held: Held) => held.members.map((member) => member.messages.length);

/** `waiting`, submitted while `running` is applied, gets its transaction only once that one ended. */
async function expectSecondAfterFirst(
  options: Partial<TransactionSchedulerOptions>,
  running: Member,
  waiting: Member,
): Promise<void> {
  const { transactions, submit } = setUp(options);
  const first = submit(running);
  await turn();
  const second = submit(waiting);
  await turn();
  expect(transactions.held).toHaveLength(1);

  transactions.held[0]!.settle(false);
  await first;
  await turn();
  await turn();
  expect(transactions.held).toHaveLength(2);
  transactions.held[1]!.settle(false);
  await second;
}

describe('TransactionScheduler', () => {
  it('puts the chunks of the partitions a fetch brought into one transaction', async () => {
    const { transactions, answers, submit } = setUp();

    const answered = Promise.all([submit(chunk(0, 2)), submit(chunk(1, 3)), submit(chunk(2, 1))]);
    await turn();

    expect(transactions.held.map((held) => held.members.map((member) => member.partition))).toEqual([
      [0, 1, 2],
    ]);
    transactions.held[0]!.settle(true);
    await answered;
    expect(answers).toEqual([
      { kind: 'applied', wroteOutbox: true },
      { kind: 'applied', wroteOutbox: true },
      { kind: 'applied', wroteOutbox: true },
    ]);
  });

  it('starts another transaction rather than go over maxRecordsPerTransaction, never splitting a chunk', async () => {
    const { transactions, submit } = setUp({ maxRecordsPerTransaction: 10, transactionsConcurrently: 2 });

    const answered = Promise.all([6, 6, 3, 15].map((size, partition) => submit(chunk(partition, size))));
    await turn();

    expect(transactions.held.map(sizes)).toEqual([[6], [6, 3]]);
    transactions.held[0]!.settle(false);
    await turn();
    await turn();
    expect(transactions.held.map(sizes)).toEqual([[6], [6, 3], [15]]);
    for (const held of transactions.held.slice(1)) held.settle(false);
    await answered;
  });

  it('waits for a transaction to end before it starts more than transactionsConcurrently', async () => {
    await expectSecondAfterFirst({}, chunk(0, 1), chunk(1, 1));
  });

  it('applies a few records of other partitions beside a large shared transaction, in an express lane of one transaction', async () => {
    const { transactions, answers, submit } = setUp();
    const flood = submit(chunk(0, EXPRESS_BEHIND));
    await turn();
    const few = Promise.all([submit(chunk(1, 1)), submit(chunk(2, EXPRESS_RECORDS - 1))]);
    await turn();
    const later = submit(chunk(3, 1));
    await turn();

    expect(transactions.held.map((held) => held.members.map((member) => member.partition))).toEqual([
      [0],
      [1, 2],
    ]);
    expect(transactions.held[1]!.extras).toEqual([]);
    transactions.held[1]!.settle(true);
    await few;
    expect(answers).toEqual([
      { kind: 'applied', wroteOutbox: true },
      { kind: 'applied', wroteOutbox: true },
    ]);
    // The lane is free again while the flood's transaction is still under way.
    await turn();
    expect(transactions.held.map((held) => held.members.map((member) => member.partition))).toEqual([
      [0],
      [1, 2],
      [3],
    ]);
    transactions.held[2]!.settle(false);
    transactions.held[0]!.settle(false);
    await Promise.all([flood, later]);
  });

  it('keeps the express lane to small chunks of the same topic, behind large transactions, in a live consumer', async () => {
    const onTopic = (topic: string, member: Member): Member => ({ ...member, topic });
    for (const [options, running, waiting] of [
      [{}, chunk(0, EXPRESS_BEHIND - 1), chunk(1, 1)],
      [{}, chunk(0, EXPRESS_BEHIND), chunk(1, EXPRESS_RECORDS + 1)],
      [{}, chunk(0, EXPRESS_BEHIND), onTopic('elsewhere', chunk(1, 1))],
      [{ until: new Map<string, bigint>() }, chunk(0, EXPRESS_BEHIND), chunk(1, 1)],
    ] as const) {
      await expectSecondAfterFirst(options, running, waiting);
    }
  });

  it('reads past chunks with none of its types without a transaction, and stores where it got with the next one', async () => {
    const { transactions, answers, submit, readPast } = setUp({ accepts: (type) => type === NOTE_TYPE });

    await submit(chunk(0, 3, { notes: false }));
    await submit(chunk(0, 2, { from: 3, notes: false }));

    expect(transactions.held).toEqual([]);
    expect(answers).toEqual([
      { kind: 'applied', wroteOutbox: false },
      { kind: 'applied', wroteOutbox: false },
    ]);
    expect(readPast).toEqual([
      ['in', 3],
      ['in', 2],
    ]);

    const applied = submit(chunk(1, 1));
    await turn();
    expect(transactions.held[0]!.members.map((member) => member.partition)).toEqual([1]);
    expect(transactions.held[0]!.extras).toEqual([
      expect.objectContaining({ topic: 'in', partition: 0, from: 0n, to: 5n }),
    ]);
    transactions.held[0]!.settle(false);
    await applied;
  });

  it('applies in a transaction what it could read past in a rebuild, beside concurrent transactions, after a gap, or beside records it applies', async () => {
    const accepts = (type: string) => type === NOTE_TYPE;
    for (const options of [{ accepts, until: new Map() }, { accepts, transactionsConcurrently: 2 }, {}]) {
      const { transactions, submit } = setUp(options);
      const answered = submit(chunk(0, 2, { notes: false }));
      await turn();
      expect(transactions.held).toHaveLength(1);
      transactions.held[0]!.settle(false);
      await answered;
    }

    const { transactions, checkpoints, submit } = setUp({ accepts });
    checkpoints.readPast('in', 0, 0n, 3n);
    const afterGap = submit(chunk(0, 2, { from: 5, notes: false }));
    const beside = submit(chunk(1, 2, { notes: false }));
    const applied = submit(chunk(2, 1));
    await turn();
    expect(transactions.held.map(sizes)).toEqual([[2, 2, 1]]);
    transactions.held[0]!.settle(false);
    await Promise.all([afterGap, beside, applied]);
  });

  it('stores the checkpoints of records read past on their own once lazyCheckpointMs passed, asking again after a failure', async () => {
    const { transactions, scheduler, submit, lines } = setUp({
      accepts: (type) => type === NOTE_TYPE,
      lazyCheckpointMs: 20,
    });
    await submit(chunk(0, 3, { notes: false }));
    scheduler.startLazyCheckpoints();
    try {
      while (transactions.held.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(transactions.held[0]!.members).toEqual([]);
      expect(transactions.held[0]!.extras).toEqual([
        expect.objectContaining({ partition: 0, from: 0n, to: 3n }),
      ]);

      transactions.held[0]!.settle(new Error('connection terminated'));
      while (transactions.held.length === 1) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(lines.map((line) => line.message)).toEqual([
        'could not store the checkpoints of records read past',
      ]);
      transactions.held[1]!.settle(false);
      await scheduler.settled();
    } finally {
      scheduler.stopLazyCheckpoints();
    }
  });

  it('wakes for nothing at rest: its lazy checkpoint timer runs only while records read past wait', async () => {
    const { transactions, scheduler, submit, checkpoints } = setUp({
      accepts: (type) => type === NOTE_TYPE,
      lazyCheckpointMs: 20,
    });
    const timers = jest.spyOn(global, 'setInterval');
    const cleared = jest.spyOn(global, 'clearInterval');
    try {
      scheduler.startLazyCheckpoints();
      expect(timers).not.toHaveBeenCalled();

      await submit(chunk(0, 3, { notes: false }));
      expect(timers).toHaveBeenCalledTimes(1);
      while (transactions.held.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      transactions.held[0]!.settle(false);
      await scheduler.settled();
      // Their checkpoints stored (the runner settles what was read past; the fake runner does not):
      // the next tick finds nothing waiting and stops the timer.
      checkpoints.forgetReadPast();
      while (cleared.mock.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(cleared).toHaveBeenCalledWith(timers.mock.results[0]!.value);

      await submit(chunk(0, 2, { from: 3, notes: false }));
      expect(timers).toHaveBeenCalledTimes(2);
    } finally {
      scheduler.stopLazyCheckpoints();
      timers.mockRestore();
      cleared.mockRestore();
    }
  });

  it('answers every chunk of a failed shared transaction with its failure, to be applied on its own', async () => {
    const { transactions, answers, submit } = setUp();
    const failure = new Error('deadlock detected');

    const answered = Promise.all([submit(chunk(0, 1)), submit(chunk(1, 1))]);
    await turn();
    transactions.held[0]!.settle(failure);
    await answered;

    expect(answers).toEqual([
      { kind: 'fallback', error: failure },
      { kind: 'fallback', error: failure },
    ]);
  });

  it('answers a chunk no longer wanted when its turn comes with stopped, and takes no transaction for it', async () => {
    const { transactions, answers, submit } = setUp();

    await submit(chunk(0, 2), () => false);

    expect(answers).toEqual([{ kind: 'stopped' }]);
    expect(transactions.held).toEqual([]);
  });

  it('applies a chunk worth a transaction of its own at once, beside the others, which commit meanwhile', async () => {
    const { transactions, scheduler, answers, submit } = setUp();
    const alone = scheduler.submitAlone(chunk(0, 2), () => true).then((answer) => void answers.push(answer));
    await turn();
    const shared = Promise.all([submit(chunk(1, 1)), submit(chunk(2, 1))]);
    await turn();

    expect(transactions.held.map((held) => held.members.map((member) => member.partition))).toEqual([
      [0],
      [1, 2],
    ]);
    transactions.held[1]!.settle(true);
    await shared;
    expect(answers).toEqual([
      { kind: 'applied', wroteOutbox: true },
      { kind: 'applied', wroteOutbox: true },
    ]);

    const third = submit(chunk(3, 1));
    await turn();
    expect(transactions.held).toHaveLength(3);
    transactions.held[2]!.settle(false);
    transactions.held[0]!.settle(true);
    await Promise.all([alone, third]);
    expect(answers[3]).toEqual({ kind: 'applied', wroteOutbox: true });
  });

  it('leaves the checkpoint of what was read past in a partition to its chunk applied alone', async () => {
    const { transactions, checkpoints, scheduler, submit } = setUp();
    checkpoints.readPast('in', 0, 0n, 3n);
    checkpoints.readPast('in', 1, 0n, 4n);
    const alone = scheduler.submitAlone(chunk(0, 1, { from: 3 }), () => true);
    await turn();
    const shared = submit(chunk(2, 1));
    await turn();

    expect(transactions.held[0]!.extras).toEqual([]);
    expect(transactions.held[1]!.extras).toEqual([
      expect.objectContaining({ partition: 1, from: 0n, to: 4n }),
    ]);
    transactions.held[1]!.settle(false);
    transactions.held[0]!.settle(false);
    await Promise.all([alone, shared]);
  });

  it('answers a chunk worth a transaction of its own with its failure, or stopped when no longer wanted', async () => {
    const { transactions, scheduler } = setUp();
    const failure = new Error('deadlock detected');

    const failed = scheduler.submitAlone(chunk(0, 1), () => true);
    await turn();
    transactions.held[0]!.settle(failure);

    expect(await failed).toEqual({ kind: 'fallback', error: failure });
    expect(await scheduler.submitAlone(chunk(0, 1), () => false)).toEqual({ kind: 'stopped' });
    expect(transactions.held).toHaveLength(1);
  });

  it('says when the transactions under way have ended', async () => {
    const { transactions, scheduler, submit } = setUp();
    const answered = submit(chunk(0, 1));
    await turn();
    let settled = false;
    const ended = scheduler.settled().then(() => void (settled = true));

    await turn();
    expect(settled).toBe(false);
    transactions.held[0]!.settle(false);
    await Promise.all([answered, ended]);
    expect(settled).toBe(true);
  });
});

describe('fetchSettings', () => {
  it('long-polls by default (a record answers the fetch at once), and brings a transaction of a partition at least', () => {
    expect(fetchSettings(undefined, 500)).toEqual({
      minBytes: 1,
      maxWaitTimeInMs: 2000,
      maxBytesPerPartition: 1_048_576,
    });
    // A gathering consumer long-polls the same way at rest: it paces its fetches itself under load.
    expect(fetchSettings(GATHERING_FETCH, 2000)).toEqual({
      minBytes: 1,
      maxWaitTimeInMs: 2000,
      maxBytesPerPartition: 2000 * 1024,
    });
    expect(GATHERING_FETCH.minIntervalMs).toBe(20);
    // A service sets the wait from KAFKA_FETCH_WAIT_MS.
    expect(longPoll(1000)).toEqual({ minBytes: 1, maxWaitMs: 1000 });
    expect(longPoll(1000, true)).toEqual({ minBytes: 1, maxWaitMs: 1000, minIntervalMs: 20 });
  });
});
