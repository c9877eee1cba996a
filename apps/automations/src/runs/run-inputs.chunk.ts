import {
  RUN_INPUT_TYPES,
  type AutomationEventRecordedV1,
  type AutomationMessageRecordedV1,
  type AutomationTimerFiredV1,
  type DecodedRecord,
} from '@cms/contracts';
import {
  answerRequest,
  Decision,
  type Answer,
  type ChunkHandler,
  type ChunkRecord,
  type DecisionTopics,
  type UndoScope,
  workspaceIdOf,
} from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { AUTOMATIONS_CONFIG, SOURCE, type AutomationsConfig } from '../config';
import { RunBook } from './run-book';
import { RunDecisions } from './run-decisions';

/** What moves runs, appended by the service itself; nobody waits for them. */
export const RUN_INPUTS: readonly string[] = [
  RUN_INPUT_TYPES.event,
  RUN_INPUT_TYPES.timer,
  RUN_INPUT_TYPES.message,
];

/**
 * A run input's decision: it never refuses, and its writes are held in the run book until the end of
 * its run of inputs, so there is nothing for a savepoint to undo.
 */
export class RunInputDecision<T> extends Decision<T> {
  protected override get undoScope(): UndoScope {
    return (work) => work();
  }
}

/** What a run of inputs reads: fetched in a few statements before the first is decided. */
function prefetchOf(records: readonly ChunkRecord[]) {
  const contacts = new Set<number>();
  const runs = new Set<number>();
  const partitions = new Set<number>();
  const events: Array<{ workspaceId: number; name: string }> = [];
  for (const { record, context } of records) {
    if (record.type === RUN_INPUT_TYPES.event) {
      const data = record.data as AutomationEventRecordedV1;
      contacts.add(data.contact.contact_id);
      partitions.add(context.partition);
      events.push({ workspaceId: workspaceIdOf(record), name: data.event.name });
    } else {
      runs.add((record.data as AutomationTimerFiredV1 | AutomationMessageRecordedV1).run_id);
    }
  }
  return { contacts: [...contacts], runs: [...runs], partitions: [...partitions], events };
}

/**
 * Decides run inputs (events, timers, message facts), a run of them of one partition at a time in
 * their order, over one RunBook: the rows they read come in a few statements, and what they change is
 * written with a statement or two per table. A lone input goes the same way.
 */
@Injectable()
export class RunInputsChunk implements ChunkHandler {
  private readonly topics: DecisionTopics;

  constructor(
    @Inject(AUTOMATIONS_CONFIG) config: AutomationsConfig,
    @Inject(RunDecisions) private readonly runs: RunDecisions,
  ) {
    this.topics = { facts: config.topics.automations, requests: config.topics.requests };
  }

  takes(record: DecodedRecord): boolean {
    return RUN_INPUTS.includes(record.type);
  }

  async apply(records: ChunkRecord[], manager: EntityManager): Promise<void> {
    const book = new RunBook(manager);
    await book.prefetch(prefetchOf(records));
    for (const { record, context, inSpan } of records) {
      const place = { partition: context.partition, replaying: context.replaying };
      const decision = new RunInputDecision(record, manager, SOURCE, !context.replaying);
      await inSpan(() =>
        answerRequest(decision, context, this.topics, (moving) => this.decide(moving, place, book)),
      );
    }
    await book.flush();
  }

  private decide(
    decision: Decision<unknown>,
    place: { partition: number; replaying: boolean },
    book: RunBook,
  ): Promise<Answer> {
    switch (decision.record.type) {
      case RUN_INPUT_TYPES.event:
        return this.runs.event(decision as Decision<AutomationEventRecordedV1>, place, book);
      case RUN_INPUT_TYPES.timer:
        return this.runs.timer(decision as Decision<AutomationTimerFiredV1>, place, book);
      default:
        return this.runs.message(decision as Decision<AutomationMessageRecordedV1>, book);
    }
  }
}
