import { createEnvelope, deterministicId, type DecodedRecord, type Envelope } from '@cms/contracts';
import { PoisonRecordError } from '@cms/kafka';
import type { EntityManager } from 'typeorm';

import { WebhooksException } from './webhooks.exception';

export const SOURCE = 'webhook-dispatch';

/** What the gateway answers: the status, and the `data` member (absent for 204). */
export interface Answer {
  status: 200 | 201 | 202 | 204;
  resource?: Record<string, unknown>;
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

  constructor(
    readonly record: DecodedRecord<T>,
    readonly manager: EntityManager,
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

  /** Queues a fact for cms.webhooks.v1; its id is derived from the record and its place among the facts. */
  fact(type: string, subject: string, data: object): void {
    const { record } = this;
    this.facts.push(
      createEnvelope({
        id: deterministicId(record.id, type, this.facts.length),
        type,
        source: SOURCE,
        workspaceid: record.workspaceid,
        correlationid: record.correlationid,
        causationid: record.id,
        time: record.time,
        subject,
        data,
      }),
    );
  }

  get publishedFacts(): readonly Envelope[] {
    return this.facts;
  }

  /**
   * Runs `work` in a savepoint. When the rules refuse (WebhooksException) its writes and facts are
   * undone and the exception is returned; any other error propagates and fails the whole record.
   */
  async attempt<R>(work: () => Promise<R>): Promise<R | WebhooksException> {
    const mark = this.facts.length;
    try {
      return await this.manager.transaction(() => work());
    } catch (error) {
      if (!(error instanceof WebhooksException)) throw error;
      this.facts.length = mark;
      return error;
    }
  }
}
