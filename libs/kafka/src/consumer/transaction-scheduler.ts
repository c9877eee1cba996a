import type { Logger } from 'pino';

import { headerText } from '../telemetry/trace-headers';
import type { CheckpointStore } from './checkpoint-store';
import type { ConsumerTelemetry } from './consumer-telemetry';
import { partitionKey } from './partition-key';
import type { Member, Outcome, TransactionRunner } from './transaction-runner';

/** When the broker answers a consumer's fetch, and how often the consumer fetches at most. */
export interface FetchPolicy {
  /** The broker answers once this many bytes are there… */
  minBytes: number;
  /** …or this long after it was asked. */
  maxWaitMs: number;
  /** A fetch begins at least this long after the last one began (0: as soon as its records are handled). */
  minIntervalMs?: number;
}

/**
 * Every consumer's default: a long poll. The broker holds the fetch until a record is there (minBytes
 * 1), so a record costs no wait, and at rest a consumer asks once every `maxWaitMs` rather than ten
 * times a second. Stopping a consumer waits for its fetch in flight (the broker answers a connection's
 * requests in order, so kafkajs cannot cut it short), so the wait is also what a stop may take. A
 * service sets it from KAFKA_FETCH_WAIT_MS (`longPoll`; 10 s unless told); 2 s where nobody says.
 */
export const LONG_POLL_FETCH: FetchPolicy = { minBytes: 1, maxWaitMs: 2000 };

/**
 * For a consumer that sees every request but applies few (the gateway's and webhook-dispatch's
 * requests consumers, the facts consumers that keep only what they need): under load its fetches are
 * 20 ms apart at least, each bringing what came meanwhile, instead of one fetch for every record or
 * two; at rest it long-polls like any other, and a record is handled as it comes.
 */
export const GATHERING_FETCH: FetchPolicy = { ...LONG_POLL_FETCH, minIntervalMs: 20 };

/** The long poll (or, with `gather`, the gathering fetch) with a wait of `maxWaitMs` at rest. */
export function longPoll(maxWaitMs: number, gather = false): FetchPolicy {
  return { ...(gather ? GATHERING_FETCH : LONG_POLL_FETCH), maxWaitMs };
}

/** The fetch settings of the kafkajs consumer: when the broker answers, and how much it brings. */
export function fetchSettings(
  fetch: FetchPolicy | undefined,
  maxPerTransaction: number,
): { minBytes: number; maxWaitTimeInMs: number; maxBytesPerPartition: number } {
  return {
    minBytes: fetch?.minBytes ?? LONG_POLL_FETCH.minBytes,
    maxWaitTimeInMs: fetch?.maxWaitMs ?? LONG_POLL_FETCH.maxWaitMs,
    // A fetch brings at least a transaction's worth of records of a partition (about 1 KB each).
    maxBytesPerPartition: Math.max(1_048_576, maxPerTransaction * 1024),
  };
}

/** The shared transaction failed with `error`: each chunk is applied on its own, which finds out why. */
export interface Fallback {
  kind: 'fallback';
  error: unknown;
}

/**
 * A live consumer's express lane: while every shared transaction is under way with at least
 * EXPRESS_BEHIND records, chunks of other partitions of the same topic holding EXPRESS_RECORDS records
 * between them go into one transaction of their own beside it, instead of waiting for it to commit.
 * One workspace's flood (a partition's chunks of 500 timer inputs or message requests, each
 * transaction taking hundreds of milliseconds) then holds another workspace's few records back by no
 * more than the turns of the event loop they share. Records are keyed by workspace, so two partitions
 * of one topic never hold the same workspace's records, and the two transactions meet on no row.
 */
export const EXPRESS_RECORDS = 20;
export const EXPRESS_BEHIND = 100;

/** A partition's chunk waiting for a transaction shared with the other partitions of its fetch. */
interface Submitted {
  member: Member;
  active(): boolean;
  resolve(result: Outcome | Fallback): void;
}

/** What of ConsumerRuntimeOptions scheduling transactions reads. */
export interface TransactionSchedulerOptions {
  logger: Logger;
  accepts?(type: string): boolean;
  until?: ReadonlyMap<string, bigint>;
  maxRecordsPerTransaction?: number;
  transactionsConcurrently?: number;
  lazyCheckpointMs?: number;
}

/**
 * Decides which partitions' chunks share a transaction. The chunks of the partitions one fetch brought
 * are handed over within one turn of the event loop; they go into one transaction, up to
 * `maxRecordsPerTransaction` records (a chunk is never split), with up to `transactionsConcurrently`
 * transactions under way at once. A round whose chunks hold no record the consumer applies (known
 * from the headers) takes no transaction at all: the checkpoint there is stored with the partition's
 * next transaction, or by a round of its own after `lazyCheckpointMs`. A chunk led by a record worth a
 * transaction of its own (see submitAlone) shares none, and holds none up.
 */
export class TransactionScheduler {
  /** Records applied in one transaction at most, and the size of the chunks a batch is cut into. */
  readonly maxPerTransaction: number;
  private readonly transactionsConcurrently: number;
  private readonly lazyCheckpointMs: number;
  /** Chunks waiting for a shared transaction, in the order they came. */
  private queue: Submitted[] = [];
  private drainScheduled = false;
  private lazyFlushRequested = false;
  private lazyTimer: NodeJS.Timeout | undefined;
  private lazyCheckpoints = false;
  private readonly roundsSettled = new Set<Promise<void>>();
  /** The partitions (partitionKey) of the chunks in a transaction of their own or the express lane's now. */
  private readonly apart = new Set<string>();
  /** The shared transactions under way (at most transactionsConcurrently): how many records each holds, and of which topics. */
  private readonly shared = new Set<{ records: number; topics: Set<string> }>();
  private expressRunning = false;

  constructor(
    private readonly options: TransactionSchedulerOptions,
    private readonly transactions: Pick<TransactionRunner, 'run'>,
    private readonly checkpoints: CheckpointStore,
    private readonly telemetry: Pick<ConsumerTelemetry, 'readPast'>,
  ) {
    this.maxPerTransaction = options.maxRecordsPerTransaction ?? 500;
    this.transactionsConcurrently = Math.max(1, options.transactionsConcurrently ?? 1);
    this.lazyCheckpointMs = options.lazyCheckpointMs ?? 1000;
  }

  /**
   * Starts storing, every `lazyCheckpointMs / 2` while records read past wait to be stored, their
   * checkpoints once read past long enough ago. The timer runs only while some wait: at rest the
   * consumer wakes for nothing.
   */
  startLazyCheckpoints(): void {
    this.lazyCheckpoints = true;
    if (this.checkpoints.hasReadPast) this.armLazyTimer();
  }

  stopLazyCheckpoints(): void {
    this.lazyCheckpoints = false;
    clearInterval(this.lazyTimer);
    this.lazyTimer = undefined;
  }

  private armLazyTimer(): void {
    if (!this.lazyCheckpoints || this.lazyTimer) return;
    this.lazyTimer = setInterval(() => this.requestLazyFlush(), Math.max(10, this.lazyCheckpointMs / 2));
    this.lazyTimer.unref();
  }

  /** Resolves once every transaction under way has committed or rolled back. */
  async settled(): Promise<void> {
    await Promise.all(this.roundsSettled);
  }

  /**
   * Hands a chunk to the next shared transaction. `active` is asked when its turn comes: a chunk no
   * longer wanted (the consumer stopped, the partition was revoked) is answered `stopped`.
   */
  submit(member: Member, active: () => boolean): Promise<Outcome | Fallback> {
    return new Promise((resolve) => {
      this.queue.push({ member, active, resolve });
      this.scheduleDrain();
    });
  }

  /**
   * Applies a chunk led by a record worth a transaction of its own (ChunkHandler.worthAlone, e.g. a
   * batch of 1,000 upserts, which takes as long to apply as hundreds of other records): in a transaction
   * started at once beside the shared ones, not counted among them, so that the chunks of other
   * partitions go on committing meanwhile instead of waiting in its transaction or behind it. Its
   * partition's checkpoint is left to it: no other round stores it while it is under way.
   */
  submitAlone(member: Member, active: () => boolean): Promise<Outcome | Fallback> {
    return new Promise((resolve) => {
      this.roundApart([{ member, active, resolve }]);
    });
  }

  /** The partitions of a fetch are handed over within one turn of the event loop: wait for all of them. */
  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    setImmediate(() => {
      this.drainScheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    while (
      this.shared.size < this.transactionsConcurrently &&
      (this.queue.length > 0 || this.lazyFlushRequested)
    ) {
      const taken: Submitted[] = [];
      let records = 0;
      while (this.queue.length > 0) {
        const size = this.queue[0]!.member.messages.length;
        if (taken.length > 0 && records + size > this.maxPerTransaction) break;
        taken.push(this.queue.shift()!);
        records += size;
      }
      const running = {
        records,
        topics: new Set(taken.map((item) => item.member.topic)),
      };
      this.shared.add(running);
      const settled = this.round(taken).finally(() => {
        this.shared.delete(running);
        this.roundsSettled.delete(settled);
        if (this.queue.length > 0 || this.lazyFlushRequested) this.scheduleDrain();
      });
      this.roundsSettled.add(settled);
    }
    this.drainExpress();
  }

  /** The express lane (EXPRESS_RECORDS): small chunks beside shared transactions that are large. */
  private drainExpress(): void {
    if (this.expressRunning || this.queue.length === 0 || this.options.until !== undefined) return;
    if (this.shared.size < this.transactionsConcurrently) return;
    const topics = new Set<string>();
    for (const running of this.shared) {
      if (running.records < EXPRESS_BEHIND) return;
      for (const topic of running.topics) topics.add(topic);
    }
    if (topics.size !== 1) return;
    const taken: Submitted[] = [];
    let records = 0;
    this.queue = this.queue.filter((item) => {
      const { member } = item;
      const size = member.messages.length;
      if (!topics.has(member.topic) || records + size > EXPRESS_RECORDS || this.onlyReadsPast(member)) {
        return true;
      }
      taken.push(item);
      records += size;
      return false;
    });
    if (taken.length === 0) return;
    this.expressRunning = true;
    this.roundApart(taken, () => {
      this.expressRunning = false;
      if (this.queue.length > 0) this.scheduleDrain();
    });
  }

  /** A chunk holds no record this consumer applies: known from the headers, without decoding. */
  private onlyReadsPast(member: Member): boolean {
    const { accepts } = this.options;
    // A rebuild stores every checkpoint it reaches; concurrent transactions could store one too early.
    if (!accepts || this.options.until !== undefined || this.transactionsConcurrently > 1) return false;
    if (!this.checkpoints.continuesReadPast(member.topic, member.partition, member.messages[0]!.offset)) {
      return false;
    }
    return member.messages.every((message) => {
      const type = headerText(message.headers, 'ce_type');
      return type !== undefined && !accepts(type);
    });
  }

  private requestLazyFlush(): void {
    if (!this.checkpoints.hasReadPast) {
      clearInterval(this.lazyTimer);
      this.lazyTimer = undefined;
      return;
    }
    if (this.lazyFlushRequested) return;
    if (!this.checkpoints.readPastBy(Date.now() - this.lazyCheckpointMs)) return;
    this.lazyFlushRequested = true;
    this.scheduleDrain();
  }

  /** One shared transaction for the chunks taken, or none when they only read past. */
  private async round(taken: Submitted[]): Promise<void> {
    const live = taken.filter((item) => {
      if (item.active()) return true;
      item.resolve({ kind: 'stopped' });
      return false;
    });
    const flush = this.lazyFlushRequested;
    this.lazyFlushRequested = false;
    if (!flush && live.every((item) => this.onlyReadsPast(item.member))) {
      for (const item of live) {
        this.readPast(item.member);
        item.resolve({ kind: 'applied', wroteOutbox: false });
      }
      return;
    }
    const members = live.map((item) => item.member);
    const inHand = new Set([
      ...members.map((member) => partitionKey(member.topic, member.partition)),
      // Its row is locked until the chunk applied apart commits: waiting for it would hold this one up.
      ...this.apart,
    ]);
    const extras = this.checkpoints.readPastRuns(inHand);
    if (members.length === 0 && extras.length === 0) return;
    let wroteOutbox: boolean;
    try {
      wroteOutbox = await this.transactions.run(members, extras);
    } catch (error) {
      if (live.length === 0) {
        // The timer asks again; nothing is lost meanwhile, the records would only be read past again.
        this.options.logger.warn({ err: error }, 'could not store the checkpoints of records read past');
      }
      // Each chunk on its own: a transient failure is retried with backoff, a bad record is found.
      for (const item of live) item.resolve({ kind: 'fallback', error });
      return;
    }
    for (const item of live) item.resolve({ kind: 'applied', wroteOutbox });
  }

  /**
   * One transaction for `taken` apart from the shared ones and their checkpoints: a chunk worth a
   * transaction of its own, or the express lane's. Their partitions' checkpoints are left to it.
   */
  private roundApart(taken: Submitted[], done?: () => void): void {
    const keys = taken.map((item) => partitionKey(item.member.topic, item.member.partition));
    for (const key of keys) this.apart.add(key);
    const settled = this.applyApart(taken).finally(() => {
      for (const key of keys) this.apart.delete(key);
      this.roundsSettled.delete(settled);
      done?.();
    });
    this.roundsSettled.add(settled);
  }

  private async applyApart(taken: Submitted[]): Promise<void> {
    const live = taken.filter((item) => {
      if (item.active()) return true;
      item.resolve({ kind: 'stopped' });
      return false;
    });
    if (live.length === 0) return;
    try {
      const wroteOutbox = await this.transactions.run(live.map((item) => item.member));
      for (const item of live) item.resolve({ kind: 'applied', wroteOutbox });
    } catch (error) {
      for (const item of live) item.resolve({ kind: 'fallback', error });
    }
  }

  /** Notes a chunk read past without a transaction (see SkippedRun). */
  private readPast(member: Member): void {
    const first = BigInt(member.messages[0]!.offset);
    const to = BigInt(member.messages[member.messages.length - 1]!.offset) + 1n;
    this.checkpoints.readPast(member.topic, member.partition, first, to);
    this.telemetry.readPast(member.topic, member.messages.length);
    this.armLazyTimer();
  }
}
