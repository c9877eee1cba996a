import {
  ALERT_REQUEST_TYPES,
  GATEWAY_REQUEST_TYPES,
  type DecodedRecord,
  type RequestRecord,
} from '@cms/contracts';
import { DecidesRequest, handlerFor, type Answer, type RequestHandlers } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { MESSAGING_CONFIG, type MessagingConfig } from '../config';
import { decideMessaging, messagingTopics, type MessagingDecision } from '../decisions/messaging-decision';
import { REQUESTS_TRANSPORT } from '../transports';
import { AlertRuleRepository } from './alert-rule.repository';
import { CheckAlertHandler } from './check-alert/check-alert.handler';
import { CreateAlertRuleHandler } from './create-alert-rule/create-alert-rule.handler';
import { DeleteAlertRuleHandler } from './delete-alert-rule/delete-alert-rule.handler';
import { UpdateAlertRuleHandler } from './update-alert-rule/update-alert-rule.handler';

/** The alert-rule requests a client sends and waits for: each is answered on the outcome topic. */
const ANSWERED_TYPES = [
  ALERT_REQUEST_TYPES.alertRuleCreate,
  ALERT_REQUEST_TYPES.alertRuleUpdate,
  ALERT_REQUEST_TYPES.alertRuleDelete,
] as const;

type AnsweredType = (typeof ANSWERED_TYPES)[number];

const NOBODY_WAITS: Answer = { status: 202 };

/** Delivery monitoring's requests: rules from clients, checks from the timer worker, new workspaces. */
@Controller()
export class AlertRequestsConsumer {
  private readonly handlers: RequestHandlers<AnsweredType, MessagingDecision>;

  constructor(
    @Inject(MESSAGING_CONFIG) private readonly config: MessagingConfig,
    @Inject(CreateAlertRuleHandler) create: CreateAlertRuleHandler,
    @Inject(UpdateAlertRuleHandler) update: UpdateAlertRuleHandler,
    @Inject(DeleteAlertRuleHandler) remove: DeleteAlertRuleHandler,
    @Inject(CheckAlertHandler) private readonly checks: CheckAlertHandler,
  ) {
    this.handlers = {
      [ALERT_REQUEST_TYPES.alertRuleCreate]: (decision) => create.handle(decision),
      [ALERT_REQUEST_TYPES.alertRuleUpdate]: (decision) => update.handle(decision),
      [ALERT_REQUEST_TYPES.alertRuleDelete]: (decision) => remove.handle(decision),
    };
  }

  @EventPattern(ANSWERED_TYPES, REQUESTS_TRANSPORT)
  answer(@Payload() record: DecodedRecord, @Ctx() context: unknown): Promise<void> {
    return decideMessaging(
      record,
      context,
      messagingTopics(this.config.topics, true),
      handlerFor(this.handlers, record.type)!,
    );
  }

  /** From the timer worker: no outcome. */
  @DecidesRequest(ALERT_REQUEST_TYPES.alertCheck, REQUESTS_TRANSPORT)
  check(
    @Payload() record: RequestRecord<typeof ALERT_REQUEST_TYPES.alertCheck>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return decideMessaging(record, context, messagingTopics(this.config.topics, false), (decision) =>
      this.checks.handle(decision),
    );
  }

  /**
   * Every workspace starts with the default rule (extensions §10): made when the workspace's creation
   * comes by on the requests topic, at its time. The gateway decides and answers that request; this
   * service only reads it.
   */
  @DecidesRequest(GATEWAY_REQUEST_TYPES.workspaceCreate, REQUESTS_TRANSPORT)
  workspaceCreated(
    @Payload() record: RequestRecord<typeof GATEWAY_REQUEST_TYPES.workspaceCreate>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return decideMessaging(record, context, messagingTopics(this.config.topics, false), async (decision) => {
      await new AlertRuleRepository(decision.manager).addDefaultRule(decision.workspaceId, decision.atDate);
      return NOBODY_WAITS;
    });
  }
}
