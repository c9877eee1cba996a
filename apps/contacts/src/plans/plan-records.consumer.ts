import {
  GATEWAY_REQUEST_TYPES,
  type DecodedRecord,
  type WorkspaceCreateRequestedV1,
  type WorkspaceUpdateRequestedV1,
} from '@cms/contracts';
import { recordContext } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { ApplyPlanLimitHandler } from './apply-plan-limit/apply-plan-limit.handler';

/**
 * The gateway's workspace requests, read for the plan limit they carry. The gateway answers them; this
 * service only keeps the limit, so it publishes nothing for them.
 */
@Controller()
export class PlanRecordsConsumer {
  constructor(@Inject(ApplyPlanLimitHandler) private readonly applyPlanLimit: ApplyPlanLimitHandler) {}

  @EventPattern(GATEWAY_REQUEST_TYPES.workspaceCreate)
  workspaceCreated(
    @Payload() record: DecodedRecord<WorkspaceCreateRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.applyPlanLimit.handle(recordContext(context).manager, record.data);
  }

  @EventPattern(GATEWAY_REQUEST_TYPES.workspaceUpdate)
  workspaceUpdated(
    @Payload() record: DecodedRecord<WorkspaceUpdateRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.applyPlanLimit.handle(recordContext(context).manager, record.data);
  }
}
