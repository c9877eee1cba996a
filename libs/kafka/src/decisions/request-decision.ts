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

import type { RecordContext } from '../consumer/consumer-runtime';
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
  const id = /^[1-9][0-9]{0,15}$/.test(record.workspaceid) ? Number(record.workspaceid) : NaN;
  if (!Number.isSafeInteger(id)) {
    throw new PoisonRecordError(`workspaceid ${JSON.stringify(record.workspaceid)} is not a workspace id`);
  }
  return id;
}

/** Runs work so that a throw undoes what it wrote (a savepoint, or a store's own undo log). */
export type UndoScope = <R>(work: () => Promise<R>) => Promise<R>;

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
  private readonly requests: Envelope[] = [];
  private derived = 0;

  /**
   * `publishes` is false below the replay horizon: an earlier life of the projection published the
   * facts, so they are not even made (their ids are hashes, the costliest part of them).
   */
  constructor(
    readonly record: DecodedRecord<T>,
    readonly manager: EntityManager,
    /** The service deciding: the `source` of its facts and outcomes. */
    readonly source: string,
    private readonly publishes = true,
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
   * facts, the one way every fact id is made. `data` may be a function that makes it, called here and
   * now: a decision that publishes nothing (a rebuild below its replay horizon) then skips making it.
   */
  fact(type: string, subject: string | undefined, data: object | (() => object)): void {
    if (!this.publishes) return;
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
        ...(subject !== undefined ? { subject } : {}),
        data: typeof data === 'function' ? data() : data,
      }),
    );
  }

  get publishedFacts(): readonly Envelope[] {
    return this.facts;
  }

  /**
   * Queues a request record for the requests topic (another service's work, or the service's own
   * later step); its id is derived from this record, the type and `purpose`, so deciding the record
   * again makes the same record, and the same purpose twice in a decision makes it once. Below the
   * replay horizon nothing is queued: an earlier life of the projection appended it.
   */
  request(type: string, subject: string, purpose: Array<string | number>, data: object): void {
    this.requestWithId(deterministicId(this.record.id, type, ...purpose), type, subject, data);
  }

  /** As `request`, with an id the caller derived (one it must know beforehand, such as a message's). */
  requestWithId(id: string, type: string, subject: string, data: object): void {
    if (!this.publishes) return;
    if (this.requests.some((request) => request.id === id)) return;
    const { record } = this;
    this.requests.push(
      createEnvelope({
        id,
        type,
        source: this.source,
        workspaceid: record.workspaceid,
        correlationid: record.correlationid,
        causationid: record.id,
        time: record.time,
        subject,
        data,
      }),
    );
  }

  get appendedRequests(): readonly Envelope[] {
    return this.requests;
  }

  /**
   * How a refused part of this decision is undone: a savepoint in the consumer's transaction. A
   * decision whose writes are held in memory overrides it with its store's undo log.
   */
  protected get undoScope(): UndoScope {
    return (inner) => this.manager.transaction(() => inner());
  }

  /**
   * Runs `work` so that when the rules refuse (RequestRefusedError) its writes and facts are undone
   * and the refusal is returned; any other error propagates and fails the whole record.
   */
  async attempt<R>(work: () => Promise<R>): Promise<R | RequestRefusedError> {
    const facts = this.facts.length;
    const requests = this.requests.length;
    try {
      return await this.undoScope(work);
    } catch (error) {
      if (!(error instanceof RequestRefusedError)) throw error;
      this.facts.length = facts;
      this.requests.length = requests;
      return error;
    }
  }
}

export interface DecisionTopics {
  /** Where the accepted decision's facts go. */
  facts: string;
  /** Where the answer goes; absent for a request nobody waits on (one a service appends itself). */
  outcomes?: string;
  /** Where the requests the decision appends go (the requests topic); needed when it appends any. */
  requests?: string;
}

/**
 * The frame around every use case: decides `decision` inside the consumer's transaction, publishes
 * the facts of an accepted decision, and answers the request with exactly one outcome. Below the
 * replay horizon nothing is published, so nothing is made to be published either.
 */
export async function answerRequest<D extends Decision<unknown>>(
  decision: D,
  context: Pick<RecordContext, 'emit' | 'replaying'>,
  topics: DecisionTopics,
  handler: (decision: D) => Promise<Answer>,
): Promise<void> {
  const { record, source } = decision;
  const answer = await decision.attempt(() => handler(decision));
  if (context.replaying) return;
  if (answer instanceof RequestRefusedError) {
    if (topics.outcomes !== undefined) {
      context.emit(topics.outcomes, rejectedOutcome(record, source, answer.status, answer.toErrors()));
    }
    return;
  }
  for (const fact of decision.publishedFacts) context.emit(topics.facts, fact);
  if (topics.outcomes !== undefined) {
    context.emit(topics.outcomes, acceptedOutcome(record, source, answer.status, answer.resource));
  }
  const requests = decision.appendedRequests;
  if (requests.length === 0) return;
  if (topics.requests === undefined)
    throw new Error(`a decision of ${record.type} appended requests with nowhere to send them`);
  for (const request of requests) context.emit(topics.requests, request);
}

/** answerRequest with a plain Decision of the record, in the transaction of the Nest context. */
export async function decideRequest<T>(
  record: DecodedRecord<T>,
  rawContext: unknown,
  source: string,
  topics: DecisionTopics,
  handler: (decision: Decision<T>) => Promise<Answer>,
): Promise<void> {
  const context = recordContext(rawContext);
  const decision = new Decision(record, context.manager, source, !context.replaying);
  await answerRequest(decision, context, topics, handler);
}
