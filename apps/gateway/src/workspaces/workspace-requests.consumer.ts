import { GATEWAY_REQUEST_TYPES, type RequestRecord } from '@cms/contracts';
import { DecidesRequest } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';

import { RequestDecider } from '../decisions/request-decider';
import { createApiKey, createWorkspace, deleteApiKey, updateWorkspace } from './workspace-decisions';

const { workspaceCreate, workspaceUpdate, apiKeyCreate, apiKeyDelete } = GATEWAY_REQUEST_TYPES;

/**
 * Decides the workspace and API key requests from the ordered log. Everything here is a function of
 * the record and the gateway's own tables, so replaying the log rebuilds the same rows.
 */
@Controller()
export class WorkspaceRequestsConsumer {
  constructor(@Inject(RequestDecider) private readonly decider: RequestDecider) {}

  @DecidesRequest(workspaceCreate)
  createWorkspace(
    @Payload() record: RequestRecord<typeof workspaceCreate>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, createWorkspace);
  }

  @DecidesRequest(workspaceUpdate)
  updateWorkspace(
    @Payload() record: RequestRecord<typeof workspaceUpdate>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, updateWorkspace);
  }

  @DecidesRequest(apiKeyCreate)
  createApiKey(
    @Payload() record: RequestRecord<typeof apiKeyCreate>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, createApiKey);
  }

  @DecidesRequest(apiKeyDelete)
  deleteApiKey(
    @Payload() record: RequestRecord<typeof apiKeyDelete>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, deleteApiKey);
  }
}
