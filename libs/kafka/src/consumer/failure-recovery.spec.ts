import { kafkaMessage, noteEnvelope, queryFailed, recordingLogger } from '../../test/fixtures/consumer-fakes';
import { CheckpointBehindError } from './checkpoint-store';
import { ConsumerTelemetry } from './consumer-telemetry';
import { PoisonRecordError } from './errors';
import { FailureRecovery, type FailureRecoveryOptions } from './failure-recovery';
import type { Culprit, Member, TransactionRunner } from './transaction-runner';

/** Transactions of one member each, answered by `script` (which throws for a failed one), as run. */
class ScriptedTransactions implements Pick<TransactionRunner, 'run' | 'culpritOf'> {
  readonly runs: Member[] = [];
  private readonly culprits = new WeakMap<object, Culprit>();

  constructor(private readonly script: (member: Member, nth: number) => boolean) {}

  async run(members: Member[]): Promise<boolean> {
    // A copy: the recovery goes on adding to the reject map it handed over.
    this.runs.push({ ...members[0]!, reject: new Map(members[0]!.reject) });
    return this.script(members[0]!, this.runs.length);
  }

  culpritOf(error: unknown): Culprit | undefined {
    return typeof error === 'object' && error !== null ? this.culprits.get(error) : undefined;
  }

  /** `error` as the handler of the record at `offset` raises it. */
  raisedAt<E extends object>(error: E, offset: string, partition = 0): E {
    this.culprits.set(error, { topic: 'in', partition, offset });
    return error;
  }
}

const chunk = (...offsets: number[]): Member => ({
  topic: 'in',
  partition: 0,
  messages: offsets.map((offset) => kafkaMessage(offset, noteEnvelope(offset))),
  reject: new Map(),
});

const offsets = (member: Member) => member.messages.map((message) => message.offset);
const rejected = (member: Member) => [...member.reject.keys()];
const connectionReset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

function setUp(
  script: (member: Member, nth: number, transactions: ScriptedTransactions) => boolean,
  options: Partial<FailureRecoveryOptions> = {},
  running = () => true,
) {
  const { logger, lines } = recordingLogger();
  const telemetry = new ConsumerTelemetry('notes', undefined);
  const transactions: ScriptedTransactions = new ScriptedTransactions((member, nth) =>
    script(member, nth, transactions),
  );
  const recovery = new FailureRecovery(
    { logger, retryBackoffMs: { initial: 1, max: 4 }, ...options },
    transactions,
    telemetry,
    running,
  );
  let heartbeats = 0;
  const heartbeat = async () => void (heartbeats += 1);
  return {
    transactions,
    telemetry,
    lines,
    recovery,
    heartbeat,
    heartbeats: () => heartbeats,
    warnings: () => lines.filter((line) => line.level === 'warn').map((line) => line.message),
  };
}

describe('FailureRecovery', () => {
  it('retries a transient failure with a backoff for as long as it lasts, heartbeating meanwhile', async () => {
    const { transactions, telemetry, recovery, heartbeat, heartbeats, warnings } = setUp((_, nth) => {
      if (nth < 3) throw connectionReset();
      return true;
    });

    const outcome = await recovery.applyAlone(chunk(0, 1, 2), connectionReset(), heartbeat, () => true);

    expect(outcome).toEqual({ kind: 'applied', wroteOutbox: true });
    expect(transactions.runs.map(offsets)).toEqual([
      ['0', '1', '2'],
      ['0', '1', '2'],
      ['0', '1', '2'],
    ]);
    expect(heartbeats()).toBeGreaterThan(0);
    expect(warnings()).toEqual(['transient failure; retrying']);
    expect(telemetry.stats.lastError).toBe('read ECONNRESET');
  });

  it('dead-letters the record whose handler raised a deterministic failure and applies the rest in one more transaction', async () => {
    const { transactions, recovery, heartbeat } = setUp(() => false);
    const failure = transactions.raisedAt(new PoisonRecordError('refused'), '1');

    const outcome = await recovery.applyAlone(chunk(0, 1, 2), failure, heartbeat, () => true);

    expect(outcome).toEqual({ kind: 'applied', wroteOutbox: false });
    expect(transactions.runs).toHaveLength(1);
    expect(transactions.runs[0]!.reject.get('1')).toBe(failure);
    expect(transactions.runs[0]!.locate).toBe(false);
  });

  it('applies the chunk with every record through its handler when no handler named the record at fault', async () => {
    const { transactions, recovery, heartbeat } = setUp((member, _, scripted) => {
      if (!member.reject.has('2'))
        throw scripted.raisedAt(queryFailed('22021', 'invalid byte sequence'), '2');
      return true;
    });

    await recovery.applyAlone(
      chunk(0, 1, 2, 3),
      queryFailed('22021', 'invalid byte sequence'),
      heartbeat,
      () => true,
    );

    expect(transactions.runs.map((member) => [member.locate, rejected(member)])).toEqual([
      [true, []],
      [true, ['2']],
    ]);
  });

  it("retries as it is a chunk whose shared transaction failed on another partition's record", async () => {
    const { transactions, recovery, heartbeat } = setUp(() => true);
    const failure = transactions.raisedAt(new PoisonRecordError('refused'), '1', 5);

    await recovery.applyAlone(chunk(0, 1), failure, heartbeat, () => true);

    expect(transactions.runs.map(rejected)).toEqual([[]]);
  });

  it('applies record by record after a failure it cannot place, and dead-letters a record that fails maxAttempts times', async () => {
    const bug = () => new TypeError('cannot read properties of undefined');
    const { transactions, telemetry, recovery, heartbeat, warnings } = setUp(
      (member) => {
        if (member.messages.some((message) => message.offset === '1') && !member.reject.has('1')) throw bug();
        return true;
      },
      { maxAttempts: 3 },
    );

    const outcome = await recovery.applyAlone(chunk(0, 1, 2), bug(), heartbeat, () => true);

    expect(outcome).toEqual({ kind: 'applied', wroteOutbox: true });
    expect(transactions.runs.map((member) => [offsets(member), rejected(member)])).toEqual([
      [['0', '1', '2'], []],
      [['0'], []],
      [['1'], []],
      [['1'], []],
      [['1'], []],
      [['1'], ['1']],
      [['2'], []],
    ]);
    expect(warnings()).toEqual(['record failed; retrying', 'record failed; retrying']);
    expect(telemetry.stats.lastError).toBe('cannot read properties of undefined');
  });

  it('dead-letters a record with its row alone when dead-lettering it fails as well', async () => {
    // The answer to the refused record holds text Postgres refuses.
    const { transactions, recovery, heartbeat } = setUp((member, _, scripted) => {
      if (member.reject.size === 0) throw scripted.raisedAt(new PoisonRecordError('refused'), '0');
      if (member.bare !== true) throw queryFailed('22P05', 'unsupported Unicode escape sequence');
      return false;
    });

    const outcome = await recovery.applyAlone(
      chunk(0),
      new PoisonRecordError('refused'),
      heartbeat,
      () => true,
    );

    expect(outcome).toEqual({ kind: 'applied', wroteOutbox: false });
    const last = transactions.runs[transactions.runs.length - 1]!;
    expect([rejected(last), last.bare]).toEqual([['0'], true]);
  });

  it('leaves a stored checkpoint behind the records in hand to its caller', async () => {
    const { recovery, heartbeat } = setUp(() => {
      throw new CheckpointBehindError(3n);
    });

    await expect(
      recovery.applyAlone(chunk(5, 6), new Error('x'), heartbeat, () => true),
    ).rejects.toBeInstanceOf(CheckpointBehindError);
  });

  it('gives a chunk up once it is no longer wanted', async () => {
    let wanted = true;
    const { transactions, recovery, heartbeat } = setUp(() => {
      wanted = false;
      throw connectionReset();
    });

    const outcome = await recovery.applyAlone(chunk(0, 1), connectionReset(), heartbeat, () => wanted);

    expect(outcome).toEqual({ kind: 'stopped' });
    expect(transactions.runs).toHaveLength(1);
  });

  it('does not wait out a backoff once the consumer stops', async () => {
    // On a fake clock, which moves only through the timers the recovery sets: a backoff it waited out
    // would move it by 60 s, whatever the machine is doing.
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const { transactions, recovery, heartbeat } = setUp(
        (_, nth) => {
          if (nth === 1) throw connectionReset();
          return true;
        },
        { retryBackoffMs: { initial: 60_000, max: 60_000 } },
        () => false,
      );

      const applying = recovery.applyAlone(chunk(0, 1), connectionReset(), heartbeat, () => true);
      await jest.runAllTimersAsync();

      expect(await applying).toEqual({ kind: 'applied', wroteOutbox: true });
      expect(transactions.runs).toHaveLength(2);
      expect(Date.now() - 1_000_000).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
