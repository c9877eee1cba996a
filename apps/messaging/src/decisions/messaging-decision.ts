import { createEnvelope, deterministicId, type DecodedRecord, type Envelope } from '@cms/contracts';
import {
  answerRequest,
  Decision,
  recordContext,
  RequestRefusedError,
  type Answer,
  type DecisionTopics,
} from '@cms/kafka';
import type { EntityManager } from 'typeorm';

/**
 * A messaging decision: besides its facts, it may append requests for other services (a contact's
 * consent a channel reported) to the requests topic, through the outbox in the record's transaction.
 * Below the replay horizon nothing is appended: an earlier life of the projection appended it.
 */
export class MessagingDecision<T = unknown> extends Decision<T> {
  private readonly requests: Envelope[] = [];

  constructor(
    record: DecodedRecord<T>,
    manager: EntityManager,
    source: string,
    /** False below the replay horizon. */
    readonly live: boolean,
  ) {
    super(record, manager, source, live);
  }

  /**
   * Queues a request record; its id is derived from this record, the type and `purpose`, so deciding
   * the record again makes the same record, and the same purpose twice in a decision makes it once.
   */
  request(type: string, subject: string, purpose: Array<string | number>, data: object): void {
    if (!this.live) return;
    const { record } = this;
    const id = deterministicId(record.id, type, ...purpose);
    if (this.requests.some((request) => request.id === id)) return;
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

  /** A refused part takes back the requests it queued, as it takes back its facts. */
  override async attempt<R>(work: () => Promise<R>): Promise<R | RequestRefusedError> {
    const mark = this.requests.length;
    const result = await super.attempt(work);
    if (result instanceof RequestRefusedError) this.requests.length = mark;
    return result;
  }
}

/**
 * Decides a record as `decideRequest` does, with a MessagingDecision: after the facts (and the answer,
 * for a client's request) the requests it queued go to `requestsTopic`.
 */
export async function decideMessagingRequest<T>(
  record: DecodedRecord<T>,
  rawContext: unknown,
  source: string,
  topics: DecisionTopics & { requests: string },
  handler: (decision: MessagingDecision<T>) => Promise<Answer>,
): Promise<void> {
  const context = recordContext(rawContext);
  const decision = new MessagingDecision(record, context.manager, source, !context.replaying);
  const { requests, ...answered } = topics;
  await answerRequest(decision, context, answered, handler);
  for (const envelope of decision.appendedRequests) context.emit(requests, envelope);
}

/** The decision as one that appends requests: every messaging decision is made as one. */
export function asMessagingDecision<T>(decision: Decision<T>): MessagingDecision<T> {
  if (!(decision instanceof MessagingDecision)) {
    throw new TypeError('a messaging decision was made without decideMessagingRequest');
  }
  return decision as MessagingDecision<T>;
}
