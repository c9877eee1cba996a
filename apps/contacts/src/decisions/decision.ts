import { Decision, type UndoScope } from '@cms/kafka';
import { createEnvelope, deterministicId, type DecodedRecord, type Envelope } from '@cms/contracts';
import type { EntityManager } from 'typeorm';

import type { ContactStore } from '../contacts/contact-store';

export { type Answer } from '@cms/kafka';

export const SOURCE = 'contacts';

/**
 * A contacts decision: the frame's Decision with the store its rules read and write. One record
 * decided on its own carries a SqlContactStore (statements in the consumer's transaction, undone by a
 * savepoint); a record of a chunk carries the chunk's ChunkContactStore (state in memory, undone by
 * the store's own undo log). The rules see only `store`, so they are the same on both paths.
 */
export class ContactsDecision<T = unknown> extends Decision<T> {
  private readonly requests: Envelope[] = [];

  constructor(
    record: DecodedRecord<T>,
    manager: EntityManager,
    readonly store: ContactStore,
    private readonly live = true,
  ) {
    super(record, manager, SOURCE, live);
  }

  /**
   * Queues a request record for another service (the contact an inbound message is from, for the
   * messaging service); its id is derived from this record and `purpose`, so deciding the record again
   * makes the same record. Below the replay horizon nothing is queued: an earlier life appended it.
   */
  request(type: string, subject: string, purpose: Array<string | number>, data: object): void {
    if (!this.live) return;
    const { record } = this;
    this.requests.push(
      createEnvelope({
        id: deterministicId(record.id, type, ...purpose),
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

  protected override get undoScope(): UndoScope {
    return this.store.undoScope ?? super.undoScope;
  }
}
