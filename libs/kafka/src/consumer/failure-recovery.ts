import type { Logger } from 'pino';

import { CheckpointBehindError } from './checkpoint-store';
import { recordFields, type ConsumerTelemetry } from './consumer-telemetry';
import { errorText } from './dead-letter-writer';
import { isDeterministicError, isTransientError } from './errors';
import type { Member, Outcome, TransactionRunner } from './transaction-runner';

/** What of ConsumerRuntimeOptions recovering from a failed transaction reads. */
export interface FailureRecoveryOptions {
  logger: Logger;
  /**
   * Attempts for an error known to be neither transient nor deterministic (a bug, perhaps), before the
   * record is dead-lettered.
   */
  maxAttempts?: number;
  retryBackoffMs?: { initial: number; max: number };
}

/**
 * Applies a partition's chunk whose shared transaction failed, in transactions of its own, until its
 * checkpoint moves past it. A failure the record's content caused (isDeterministicError) is known by
 * the record whose handler raised it, or found by applying the chunk once more record by record; that
 * record is dead-lettered and the rest applied in the next transaction, without a backoff, so the
 * records behind it wait a few transactions at most. Transient failures are retried with backoff for
 * as long as they last; other failures one record at a time, `maxAttempts` times each, before that
 * record is dead-lettered as a poison record. CheckpointBehindError is not a failure: it goes to the
 * caller, which reads the partition again.
 */
export class FailureRecovery {
  private readonly maxAttempts: number;
  private readonly backoff: { initial: number; max: number };

  constructor(
    private readonly options: FailureRecoveryOptions,
    private readonly transactions: Pick<TransactionRunner, 'run' | 'culpritOf'>,
    private readonly telemetry: Pick<ConsumerTelemetry, 'failed'>,
    /** Whether the consumer still runs: a pause between attempts ends early once it stops. */
    private readonly running: () => boolean,
  ) {
    this.maxAttempts = options.maxAttempts ?? 3;
    this.backoff = options.retryBackoffMs ?? { initial: 100, max: 5000 };
  }

  /** A chunk whose shared transaction failed with `error`, in a transaction of its own. */
  async applyAlone(
    member: Member,
    error: unknown,
    heartbeat: () => Promise<void>,
    active: () => boolean,
  ): Promise<Outcome> {
    // A record's content made it fail: the chunk's own transaction goes straight to finding that
    // record (the chunk handler's statements name none), rather than failing once more the same way.
    // When a handler named the record and it is another partition's, this chunk is fine as it is.
    const elsewhere =
      this.transactions.culpritOf(error) !== undefined && this.culpritIn(error, member) === undefined;
    if (isDeterministicError(error) && !elsewhere) {
      return this.applyRejecting(member, error, heartbeat, active);
    }
    return this.applyWithRetries(member, heartbeat, active);
  }

  /** The record of `member` whose handler raised `error`, if one of its records did. */
  private culpritIn(error: unknown, member: Member): string | undefined {
    const culprit = this.transactions.culpritOf(error);
    if (!culprit || culprit.topic !== member.topic || culprit.partition !== member.partition)
      return undefined;
    return member.messages.some((message) => message.offset === culprit.offset) ? culprit.offset : undefined;
  }

  private async applyWithRetries(
    member: Member,
    heartbeat: () => Promise<void>,
    active: () => boolean,
  ): Promise<Outcome> {
    try {
      return { kind: 'applied', wroteOutbox: await this.transactions.run([member]) };
    } catch (error) {
      if (error instanceof CheckpointBehindError) throw error;
      this.telemetry.failed(errorText(error));
      if (isDeterministicError(error)) return this.applyRejecting(member, error, heartbeat, active);
      if (member.messages.length === 1 || !isTransientError(error)) {
        // Find the record at fault: apply one record per transaction from here.
        return this.applyOneByOne(member, heartbeat, active);
      }
    }
    const { topic, partition, messages } = member;
    let wait = this.backoff.initial;
    for (;;) {
      if (!active()) return { kind: 'stopped' };
      await this.pause(wait, heartbeat);
      wait = Math.min(wait * 2, this.backoff.max);
      try {
        return { kind: 'applied', wroteOutbox: await this.transactions.run([member]) };
      } catch (error) {
        if (error instanceof CheckpointBehindError) throw error;
        this.telemetry.failed(errorText(error));
        if (isDeterministicError(error)) return this.applyRejecting(member, error, heartbeat, active);
        if (!isTransientError(error)) return this.applyOneByOne(member, heartbeat, active);
        this.options.logger.warn(
          {
            err: error,
            topic,
            partition,
            offset: messages[0]!.offset,
            last_offset: messages[messages.length - 1]!.offset,
          },
          'transient failure; retrying',
        );
      }
    }
  }

  /**
   * A record of the chunk failed in a way no retry cures (see isDeterministicError): it is
   * dead-lettered and the others applied, in one transaction, without waiting. The record is known
   * when its handler raised the error; otherwise (the chunk handler's statements) the chunk is applied
   * once record by record, which names it. Each turn names one more record, so this ends.
   */
  private async applyRejecting(
    member: Member,
    failure: unknown,
    heartbeat: () => Promise<void>,
    active: () => boolean,
  ): Promise<Outcome> {
    const reject = new Map(member.reject);
    let locate = member.locate ?? false;
    let error = failure;
    for (;;) {
      if (!active()) return { kind: 'stopped' };
      const culprit = this.culpritIn(error, member);
      if (culprit !== undefined && !reject.has(culprit)) reject.set(culprit, error);
      else if (!locate) locate = true;
      // Raised after the handlers (writing the outbox, the checkpoints): no record to blame for it.
      else return this.applyOneByOne({ ...member, reject }, heartbeat, active);
      const attempt: Member = { ...member, reject, locate };
      try {
        return { kind: 'applied', wroteOutbox: await this.transactions.run([attempt]) };
      } catch (next) {
        if (next instanceof CheckpointBehindError) throw next;
        this.telemetry.failed(errorText(next));
        if (isTransientError(next)) return this.applyWithRetries(attempt, heartbeat, active);
        if (!isDeterministicError(next)) return this.applyOneByOne(attempt, heartbeat, active);
        error = next;
      }
    }
  }

  private async applyOneByOne(
    member: Member,
    heartbeat: () => Promise<void>,
    active: () => boolean,
  ): Promise<Outcome> {
    const { topic, partition } = member;
    let wroteOutbox = false;
    for (const message of member.messages) {
      let attempts = 0;
      let wait = this.backoff.initial;
      const known = member.reject.has(message.offset);
      let single: Member = {
        topic,
        partition,
        messages: [message],
        reject: known ? new Map([[message.offset, member.reject.get(message.offset)]]) : new Map(),
      };
      for (;;) {
        if (!active()) return { kind: 'stopped' };
        try {
          wroteOutbox = (await this.transactions.run([single])) || wroteOutbox;
          break;
        } catch (error) {
          if (error instanceof CheckpointBehindError) throw error;
          this.telemetry.failed(errorText(error));
          if (!isTransientError(error)) attempts += 1;
          // Errors not known to be deterministic may be a bug that a retry outlives, or not: a few tries.
          const poison = isDeterministicError(error) || attempts >= this.maxAttempts;
          if (poison && single.reject.size === 0) {
            single = { ...single, reject: new Map([[message.offset, error]]) };
            continue;
          }
          if (poison && single.bare !== true) {
            // Dead-lettering it failed too (its answer, its dead-letter record): the row alone then.
            single = { ...single, bare: true };
            continue;
          }
          this.options.logger.warn(
            { err: error, ...recordFields(topic, partition, message), attempts },
            'record failed; retrying',
          );
          await this.pause(wait, heartbeat);
          wait = Math.min(wait * 2, this.backoff.max);
        }
      }
      await heartbeat();
    }
    return { kind: 'applied', wroteOutbox };
  }

  private async pause(ms: number, heartbeat: () => Promise<void>): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until && this.running()) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, until - Date.now())));
      await heartbeat().catch(() => undefined);
    }
  }
}
