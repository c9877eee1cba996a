import type { Logger } from 'pino';

import { CommitSignalListener, type CommitSignalListenerOptions } from './commit-signal';
import type { BackgroundWorker } from './service-definition';

/**
 * The safety poll of a worker woken by commit signals: how long it sleeps at most when nothing is due,
 * in case a signal was lost (its listener's session dropped as the work was committed).
 */
export const SAFETY_POLL_MS = 5000;

export interface PollingLoopOptions {
  /** Turns run side by side. */
  concurrency: number;
  /** The longest sleep when idle: the safety poll of a worker that is woken, else its pace. */
  pollMs: number;
  logger: Logger;
  /** One round of work; answers whether there may be more right away. */
  turn(): Promise<boolean>;
  /**
   * When the earliest work not due yet falls due (ms since the epoch), undefined when none waits: an
   * idle turn sleeps until then if it is sooner than `pollMs`.
   */
  nextDueAt?(): Promise<number | undefined>;
}

/** A worker never sleeps less than this for work due now (a row leased by another turn, a clock skew). */
const SHORTEST_SLEEP_MS = 10;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs a worker's turns until stopped: again at once while there is more, else when kicked, when the
 * earliest waiting work falls due, or after `pollMs`, whichever comes first; a turn that throws (the
 * database away) is retried with a growing pause.
 */
export class PollingLoop {
  private running = false;
  private loops: Array<Promise<void>> = [];
  private readonly waiting = new Set<() => void>();
  /** A kick that came while a turn ran: the next idle is skipped, as what was kicked for may be new. */
  private kicked = false;

  constructor(private readonly options: PollingLoopOptions) {}

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = Array.from({ length: this.options.concurrency }, () => this.run());
  }

  kick(): void {
    this.kicked = true;
    for (const wake of [...this.waiting]) wake();
  }

  /** Lets the turns in hand finish. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.kick();
    await Promise.all(this.loops);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let more = false;
      this.kicked = false;
      try {
        more = await this.options.turn();
        failures = 0;
      } catch (error) {
        failures += 1;
        this.options.logger.error({ err: error }, 'worker turn failed; trying again');
        await sleep(Math.min(5000, 100 * 2 ** Math.min(failures, 6)));
        continue;
      }
      if (!more) await this.idle();
    }
  }

  private async idle(): Promise<void> {
    let sleepMs = this.options.pollMs;
    if (this.options.nextDueAt && !this.kicked) {
      try {
        const due = await this.options.nextDueAt();
        if (due !== undefined) sleepMs = Math.max(SHORTEST_SLEEP_MS, Math.min(sleepMs, due - Date.now()));
      } catch (error) {
        // The database away: the turn will say so; meanwhile sleep no longer than a poll.
        this.options.logger.warn({ err: error }, 'could not read when the next work is due');
      }
    }
    if (this.kicked || !this.running) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, sleepMs);
      this.waiting.add(done);
    });
  }
}

/**
 * A background worker made of a polling loop: its turns, started once the consumers listen and let
 * finish on shutdown (a BackgroundWorker of the service's `workers`). A worker says what one turn does.
 */
export abstract class PolledWorker implements BackgroundWorker {
  private readonly loop: PollingLoop;
  private readonly signal: CommitSignalListener | undefined;

  /** `wakeOn`: a commit signal (signalOnCommit) that kicks the worker, wherever it was committed. */
  protected constructor(
    options: Omit<PollingLoopOptions, 'turn' | 'nextDueAt'> & {
      wakeOn?: Pick<CommitSignalListenerOptions, 'databaseUrl' | 'schema' | 'signal'>;
    },
  ) {
    const { wakeOn, ...loop } = options;
    this.loop = new PollingLoop({
      ...loop,
      turn: () => this.turn(),
      nextDueAt: () => this.nextDueAt(),
    });
    this.signal = wakeOn
      ? new CommitSignalListener({ ...wakeOn, logger: options.logger, onSignal: () => this.kick() })
      : undefined;
  }

  get isRunning(): boolean {
    return this.loop.isRunning;
  }

  start(): void {
    this.loop.start();
    this.signal?.start();
  }

  async stop(): Promise<void> {
    await this.signal?.stop();
    await this.loop.stop();
  }

  /** Something became due: look now rather than at the next poll. */
  kick(): void {
    this.loop.kick();
  }

  /** One round of work; answers whether there may be more right away. */
  protected abstract turn(): Promise<boolean>;

  /**
   * When the earliest work not yet due falls due (ms since the epoch): a worker whose work has due
   * times says so, and sleeps until then rather than polling. Undefined: none waits, or no due times.
   */
  protected nextDueAt(): Promise<number | undefined> {
    return Promise.resolve(undefined);
  }
}
