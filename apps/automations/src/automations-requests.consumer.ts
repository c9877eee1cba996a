import {
  AUTOMATIONS_REQUEST_TYPES,
  RUN_INPUT_TYPES,
  type AutomationEventRecordedV1,
  type AutomationMessageRecordedV1,
  type AutomationTimerFiredV1,
  type DecodedRecord,
} from '@cms/contracts';
import { decideRequest, handlerFor, recordContext, type RequestHandlers } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { RunDecisions } from './runs/run-decisions';
import { WriteWorkflowsHandler } from './workflows/write-workflows/write-workflows.handler';
import { AUTOMATIONS_CONFIG, SOURCE, type AutomationsConfig } from './config';
import { REQUESTS_TRANSPORT } from './transports';

/** The requests a client sends and waits for: each is answered on the outcome topic. */
const ANSWERED_TYPES = [
  AUTOMATIONS_REQUEST_TYPES.workflowCreate,
  AUTOMATIONS_REQUEST_TYPES.workflowUpdate,
  AUTOMATIONS_REQUEST_TYPES.workflowDelete,
] as const;

type AnsweredType = (typeof ANSWERED_TYPES)[number];

/** What moves runs, appended by the service itself; nobody waits for them. */
const RUN_INPUTS = [RUN_INPUT_TYPES.event, RUN_INPUT_TYPES.timer, RUN_INPUT_TYPES.message] as const;

/** Hands each request record to its use case; the shared frame answers it and publishes its facts. */
@Controller()
export class AutomationsRequestsConsumer {
  /** One use case per answered type: a type without one, or one for another payload, does not compile. */
  private readonly handlers: RequestHandlers<AnsweredType>;

  constructor(
    @Inject(AUTOMATIONS_CONFIG) private readonly config: AutomationsConfig,
    @Inject(WriteWorkflowsHandler) workflows: WriteWorkflowsHandler,
    @Inject(RunDecisions) private readonly runs: RunDecisions,
  ) {
    this.handlers = {
      [AUTOMATIONS_REQUEST_TYPES.workflowCreate]: (decision) => workflows.create(decision),
      [AUTOMATIONS_REQUEST_TYPES.workflowUpdate]: (decision) => workflows.update(decision),
      [AUTOMATIONS_REQUEST_TYPES.workflowDelete]: (decision) => workflows.delete(decision),
    };
  }

  private topics(answered: boolean) {
    const { automations: facts, outcomes, requests } = this.config.topics;
    return answered ? { facts, outcomes, requests } : { facts, requests };
  }

  @EventPattern(ANSWERED_TYPES, REQUESTS_TRANSPORT)
  answer(@Payload() record: DecodedRecord, @Ctx() context: unknown): Promise<void> {
    // Bound to exactly the types of the map.
    return decideRequest(record, context, SOURCE, this.topics(true), handlerFor(this.handlers, record.type)!);
  }

  @EventPattern(RUN_INPUTS, REQUESTS_TRANSPORT)
  move(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    const { partition, replaying } = recordContext(rawContext);
    const place = { partition, replaying };
    const topics = this.topics(false);
    switch (record.type) {
      case RUN_INPUT_TYPES.event:
        return decideRequest(
          record as DecodedRecord<AutomationEventRecordedV1>,
          rawContext,
          SOURCE,
          topics,
          (decision) => this.runs.event(decision, place),
        );
      case RUN_INPUT_TYPES.timer:
        return decideRequest(
          record as DecodedRecord<AutomationTimerFiredV1>,
          rawContext,
          SOURCE,
          topics,
          (decision) => this.runs.timer(decision, place),
        );
      default:
        return decideRequest(
          record as DecodedRecord<AutomationMessageRecordedV1>,
          rawContext,
          SOURCE,
          topics,
          (decision) => this.runs.message(decision),
        );
    }
  }
}
