import type { DecodedRecord } from '@cms/contracts';
import {
  answerRequest,
  Decision,
  recordContext,
  type Answer,
  type DecisionTopics,
  type UndoScope,
} from '@cms/kafka';
import type { EntityManager } from 'typeorm';

import { SOURCE } from '../config';
import { MessageRepository, type MessageStore } from '../messages/message.repository';

/**
 * A messaging decision: the frame's Decision with the store the message rules read and write. One
 * record decided on its own carries a MessageRepository (statements in the consumer's transaction,
 * undone by a savepoint); a record of a chunk carries the chunk's ChunkMessageStore (state in memory,
 * undone by the store's own undo log).
 */
export class MessagingDecision<T = unknown> extends Decision<T> {
  constructor(
    record: DecodedRecord<T>,
    manager: EntityManager,
    readonly store: MessageStore,
    publishes = true,
  ) {
    super(record, manager, SOURCE, publishes);
  }

  protected override get undoScope(): UndoScope {
    return this.store.undoScope ?? super.undoScope;
  }
}

/**
 * The one way messaging decides a request record, on its own or in a chunk: a MessagingDecision over
 * `store` (statements in the record's transaction unless a chunk passes its state), answered by the
 * shared frame (facts, and the outcome when `topics` names an outcome topic).
 */
export function decideMessaging<T>(
  record: DecodedRecord<T>,
  rawContext: unknown,
  topics: DecisionTopics,
  handler: (decision: MessagingDecision<T>) => Promise<Answer>,
  store?: MessageStore,
): Promise<void> {
  const context = recordContext(rawContext);
  const decision = new MessagingDecision(
    record,
    context.manager,
    store ?? new MessageRepository(context.manager),
    !context.replaying,
  );
  return answerRequest(decision, context, topics, handler);
}
