import { Decision, type UndoScope } from '@cms/kafka';
import type { DecodedRecord } from '@cms/contracts';
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
  constructor(
    record: DecodedRecord<T>,
    manager: EntityManager,
    readonly store: ContactStore,
    live = true,
  ) {
    super(record, manager, SOURCE, live);
  }

  protected override get undoScope(): UndoScope {
    return this.store.undoScope ?? super.undoScope;
  }
}
