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

import { SOURCE, type MessagingConfig } from '../config';
import { MessageRepository, type MessageStore } from '../messages/message.repository';

/**
 * A messaging decision: the frame's Decision with the store the message rules read and write, and the
 * requests it appends for other services (a contact's consent a channel reported) to the requests
 * topic. One record decided on its own carries a MessageRepository (statements in the consumer's
 * transaction, undone by a savepoint); a record of a chunk carries the chunk's ChunkMessageStore (state
 * in memory, undone by the store's own undo log). Below the replay horizon nothing is appended: an
 * earlier life of the projection appended it.
 */
export class MessagingDecision<T = unknown> extends Decision<T> {
  constructor(
    record: DecodedRecord<T>,
    manager: EntityManager,
    readonly store: MessageStore,
    /** False below the replay horizon. */
    readonly live = true,
  ) {
    super(record, manager, SOURCE, live);
  }

  protected override get undoScope(): UndoScope {
    return this.store.undoScope ?? super.undoScope;
  }
}

/** Where a messaging decision's records go: its facts, the answer (when a client waits), its requests. */
export type MessagingTopics = DecisionTopics & { requests: string };

/** Where a decision writes: its facts, the requests it appends, and its answer when a client waits. */
export function messagingTopics(topics: MessagingConfig['topics'], answered: boolean): MessagingTopics {
  const { messaging: facts, outcomes, requests } = topics;
  return answered ? { facts, outcomes, requests } : { facts, requests };
}

/**
 * The one way messaging decides a request record, on its own or in a chunk: a MessagingDecision over
 * `store` (statements in the record's transaction unless a chunk passes its state), answered by the
 * shared frame (facts, and the outcome when `topics` names an outcome topic); then the requests it
 * queued go to the requests topic.
 */
export async function decideMessaging<T>(
  record: DecodedRecord<T>,
  rawContext: unknown,
  topics: MessagingTopics,
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
  await answerRequest(decision, context, topics, handler);
}
