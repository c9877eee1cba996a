import { AUTOMATIONS_REQUEST_TYPES, BOT_REQUEST_TYPES, type DecodedRecord } from '@cms/contracts';
import { answerRequest, handlerFor, recordContext, type RequestHandlers } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { BOT_INPUTS, BotInputs } from './bots/bot-inputs';
import { WriteBotsHandler } from './bots/write-bots/write-bots.handler';
import { RUN_INPUTS, RunInputsChunk } from './runs/run-inputs.chunk';
import { WriteWorkflowsHandler } from './workflows/write-workflows/write-workflows.handler';
import { AUTOMATIONS_CONFIG, type AutomationsConfig } from './config';
import { AutomationsDecision } from './decisions/automations-decision';
import { REQUESTS_TRANSPORT } from './transports';

/** The requests a client sends and waits for: each is answered on the outcome topic. */
const ANSWERED_TYPES = [
  AUTOMATIONS_REQUEST_TYPES.workflowCreate,
  AUTOMATIONS_REQUEST_TYPES.workflowUpdate,
  AUTOMATIONS_REQUEST_TYPES.workflowDelete,
  BOT_REQUEST_TYPES.create,
  BOT_REQUEST_TYPES.update,
  BOT_REQUEST_TYPES.delete,
] as const;

type AnsweredType = (typeof ANSWERED_TYPES)[number];

/** Hands each request record to its use case; the shared frame answers it and publishes its facts. */
@Controller()
export class AutomationsRequestsConsumer {
  /** One use case per answered type: a type without one, or one for another payload, does not compile. */
  private readonly handlers: RequestHandlers<AnsweredType, AutomationsDecision<never>>;

  constructor(
    @Inject(AUTOMATIONS_CONFIG) private readonly config: AutomationsConfig,
    @Inject(WriteWorkflowsHandler) workflows: WriteWorkflowsHandler,
    @Inject(RunInputsChunk) private readonly inputs: RunInputsChunk,
    @Inject(WriteBotsHandler) bots: WriteBotsHandler,
    @Inject(BotInputs) private readonly botInputs: BotInputs,
  ) {
    this.handlers = {
      [AUTOMATIONS_REQUEST_TYPES.workflowCreate]: (decision) => workflows.create(decision),
      [AUTOMATIONS_REQUEST_TYPES.workflowUpdate]: (decision) => workflows.update(decision),
      [AUTOMATIONS_REQUEST_TYPES.workflowDelete]: (decision) => workflows.delete(decision),
      [BOT_REQUEST_TYPES.create]: (decision) => bots.create(decision),
      [BOT_REQUEST_TYPES.update]: (decision) => bots.update(decision),
      [BOT_REQUEST_TYPES.delete]: (decision) => bots.delete(decision),
    };
  }

  private topics() {
    const { automations: facts, outcomes, requests } = this.config.topics;
    return { facts, outcomes, requests };
  }

  @EventPattern(ANSWERED_TYPES, REQUESTS_TRANSPORT)
  answer(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    const context = recordContext(rawContext);
    // Bound to exactly the types of the map.
    const handler = handlerFor(this.handlers, record.type)!;
    return answerRequest(
      new AutomationsDecision(record as DecodedRecord<never>, context),
      context,
      this.topics(),
      handler,
    );
  }

  /** A lone run input (a run of them goes to RunInputsChunk). */
  @EventPattern(RUN_INPUTS, REQUESTS_TRANSPORT)
  move(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    const context = recordContext(rawContext);
    return this.inputs.apply([{ record, context, inSpan: (work) => work() }], context.manager);
  }

  /** A bot input: an inbound message, a conversation's timer, a model's answer. */
  @EventPattern(BOT_INPUTS, REQUESTS_TRANSPORT)
  converse(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    return this.botInputs.apply(record, rawContext);
  }
}
