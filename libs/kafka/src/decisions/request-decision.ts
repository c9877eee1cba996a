import {
  acceptedOutcome,
  createEnvelope,
  deterministicId,
  rejectedOutcome,
  type DecodedRecord,
  type Envelope,
  type OutcomeError,
} from '@cms/contracts';
import type { EntityManager } from 'typeorm';

import { recordContext } from '../nest/kafka-record.server';
import { PoisonRecordError } from '../consumer/errors';

/** What the gateway answers: the status, and the `data` member (absent for 204). */
export interface Answer {
  status: 200 | 201 | 202 | 204;
  resource?: Record<string, unknown>;
}

/**
 * A request the service's rules refuse. Each service extends it with its own error codes and the one
 * switch that maps them to statuses; the decision frame only needs the status and the error objects.
 */
export abstract class RequestRefusedError extends Error {
  abstract readonly status: number;
  abstract toErrors(): OutcomeError[];
}

/** The workspace of a record's envelope; a record without one can never be applied. */
export function workspaceIdOf(record: Pick<DecodedRecord, 'workspaceid'>): number {
  const id = /^[1-9][0-9]{0,14}$/.test(record.workspaceid) ? Number(record.workspaceid) : NaN;
  if (!Number.isSafeInteger(id)) {
    throw new PoisonRecordError(`workspaceid ${JSON.stringify(record.workspaceid)} is not a workspace id`);
  }
  return id;
}

/**
 * One request record being decided: its data, the workspace, the time every write is stamped with,
 * and the facts the decision publishes. Everything comes from the record and the service's own
 * tables, so replaying the log decides the same way.
 */
export class Decision<T = unknown> {
  readonly workspaceId: number;
  /** The record's time, ISO 8601 UTC with milliseconds: "now" for this decision. */
  readonly at: string;
  private readonly facts: Envelope[] = [];
  private derived = 0;

  constructor(
    readonly record: DecodedRecord<T>,
    readonly manager: EntityManager,
    private readonly source: string,
  ) {
    this.workspaceId = workspaceIdOf(record);
    this.at = new Date(record.time).toISOString();
  }

  get data(): T {
    return this.record.data;
  }

  get atDate(): Date {
    return new Date(this.at);
  }

  /**
   * A row id that a rebuild derives again: from the record, the purpose, and how many ids this
   * decision derived before (the same on replay, since deciding is deterministic).
   */
  derivedId(...purpose: Array<string | number>): string {
    this.derived += 1;
    return deterministicId(this.record.id, ...purpose, this.derived);
  }

  /**
   * Queues a fact for the service's topic; its id is derived from the record and its place among the
   * facts. `data` may be a function that makes it, called here and now: a decision that publishes
   * nothing (a rebuild below its replay horizon) then skips making it.
   */
  fact(type: string, subject: string, data: object | (() => object)): void {
    const { record } = this;
    this.facts.push(
      createEnvelope({
        id: deterministicId(record.id, type, this.facts.length),
        type,
        source: this.source,
        workspaceid: record.workspaceid,
        correlationid: record.correlationid,
        causationid: record.id,
        time: record.time,
        subject,
        data: typeof data === 'function' ? data() : data,
      }),
    );
  }

  get publishedFacts(): readonly Envelope[] {
    return this.facts;
  }

  /**
   * Runs `work` in a savepoint. When the rules refuse (RequestRefusedError) its writes and facts are
   * undone and the refusal is returned; any other error propagates and fails the whole record.
   */
  async attempt<R>(work: () => Promise<R>): Promise<R | RequestRefusedError> {
    const mark = this.facts.length;
    try {
      return await this.manager.transaction(() => work());
    } catch (error) {
      if (!(error instanceof RequestRefusedError)) throw error;
      this.facts.length = mark;
      return error;
    }
  }
}

export interface DecisionTopics {
  /** Where the accepted decision's facts go. */
  facts: string;
  outcomes: string;
}

/**
 * The frame around every use case: decides one request record inside the consumer's transaction,
 * publishes the facts of an accepted decision, and answers the request with exactly one outcome.
 */
export async function decideRequest<T>(
  record: DecodedRecord<T>,
  rawContext: unknown,
  source: string,
  topics: DecisionTopics,
  handler: (decision: Decision<T>) => Promise<Answer>,
): Promise<void> {
  const context = recordContext(rawContext);
  const decision = new Decision(record, context.manager, source);
  const answer = await decision.attempt(() => handler(decision));
  if (answer instanceof RequestRefusedError) {
    context.emit(topics.outcomes, rejectedOutcome(record, source, answer.status, answer.toErrors()));
    return;
  }
  for (const fact of decision.publishedFacts) context.emit(topics.facts, fact);
  context.emit(topics.outcomes, acceptedOutcome(record, source, answer.status, answer.resource));
}
