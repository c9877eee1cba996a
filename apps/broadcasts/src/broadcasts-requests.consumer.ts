import {
  BROADCAST_INPUT_TYPES,
  BROADCASTS_REQUEST_TYPES,
  type DecodedRecord,
  type NotificationScheduleFiredV1,
  type NotificationSendMadeV1,
  type NotificationSendSnapshotRecordedV1,
} from '@cms/contracts';
import { answerRequest, handlerFor, recordContext, type Answer, type RequestHandlers } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { BroadcastsDecision } from './decisions/broadcasts-decision';
import { WriteNotificationsHandler } from './notifications/write-notifications/write-notifications.handler';
import { SendDecisions } from './sends/send-decisions';
import { BROADCASTS_CONFIG, type BroadcastsConfig } from './config';
import { REQUESTS_TRANSPORT } from './transports';

/** The requests a client sends and waits for: each is answered on the outcome topic. */
const ANSWERED_TYPES = [
  BROADCASTS_REQUEST_TYPES.notificationCreate,
  BROADCASTS_REQUEST_TYPES.notificationUpdate,
  BROADCASTS_REQUEST_TYPES.notificationDelete,
  BROADCASTS_REQUEST_TYPES.notificationSend,
  BROADCASTS_REQUEST_TYPES.sendPause,
  BROADCASTS_REQUEST_TYPES.sendResume,
  BROADCASTS_REQUEST_TYPES.sendCancel,
] as const;

type AnsweredType = (typeof ANSWERED_TYPES)[number];

/** What the service appends to the requests topic itself: decided in order, answered to nobody. */
const INPUT_TYPES = [
  BROADCAST_INPUT_TYPES.scheduleFired,
  BROADCAST_INPUT_TYPES.snapshotTaken,
  BROADCAST_INPUT_TYPES.made,
] as const;

/** Hands each request record to its use case; the shared frame answers it and publishes its facts. */
@Controller()
export class BroadcastsRequestsConsumer {
  /** One use case per answered type: a type without one, or one for another payload, does not compile. */
  private readonly handlers: RequestHandlers<AnsweredType, BroadcastsDecision<never>>;

  constructor(
    @Inject(BROADCASTS_CONFIG) private readonly config: BroadcastsConfig,
    @Inject(WriteNotificationsHandler) private readonly notifications: WriteNotificationsHandler,
    @Inject(SendDecisions) private readonly sends: SendDecisions,
  ) {
    this.handlers = {
      [BROADCASTS_REQUEST_TYPES.notificationCreate]: (decision) => notifications.create(decision),
      [BROADCASTS_REQUEST_TYPES.notificationUpdate]: (decision) => notifications.update(decision),
      [BROADCASTS_REQUEST_TYPES.notificationDelete]: (decision) => notifications.delete(decision),
      [BROADCASTS_REQUEST_TYPES.notificationSend]: (decision) => sends.send(decision),
      [BROADCASTS_REQUEST_TYPES.sendPause]: (decision) => sends.pause(decision),
      [BROADCASTS_REQUEST_TYPES.sendResume]: (decision) => sends.resume(decision),
      [BROADCASTS_REQUEST_TYPES.sendCancel]: (decision) => sends.cancel(decision),
    };
  }

  @EventPattern(ANSWERED_TYPES, REQUESTS_TRANSPORT)
  answer(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    const context = recordContext(rawContext);
    const { broadcasts: facts, outcomes, requests } = this.config.topics;
    // Bound to exactly the types of the map.
    const handler = handlerFor(this.handlers, record.type)!;
    return answerRequest(
      new BroadcastsDecision(record as DecodedRecord<never>, context),
      context,
      { facts, outcomes, requests },
      handler,
    );
  }

  /** An input: its facts and the requests it makes are published; a refusal is logged, not answered. */
  @EventPattern(INPUT_TYPES, REQUESTS_TRANSPORT)
  move(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    const context = recordContext(rawContext);
    const { broadcasts: facts, requests } = this.config.topics;
    return answerRequest(new BroadcastsDecision(record, context), context, { facts, requests }, (decision) =>
      this.decideInput(decision),
    );
  }

  private async decideInput(decision: BroadcastsDecision): Promise<Answer> {
    switch (decision.record.type) {
      case BROADCAST_INPUT_TYPES.scheduleFired:
        await this.notifications.scheduleFired(decision as BroadcastsDecision<NotificationScheduleFiredV1>);
        break;
      case BROADCAST_INPUT_TYPES.snapshotTaken:
        await this.sends.snapshotRecorded(decision as BroadcastsDecision<NotificationSendSnapshotRecordedV1>);
        break;
      default:
        await this.sends.made(decision as BroadcastsDecision<NotificationSendMadeV1>);
    }
    return { status: 202 };
  }
}
