import { Module } from '@nestjs/common';

import { IntegrationRequestsConsumer } from '../integrations/integration-requests.consumer';
import { WorkspaceRequestsConsumer } from '../workspaces/workspace-requests.consumer';
import { RequestDecider } from './request-decider';

/** The requests the gateway decides itself: workspaces, API keys and integrations, live and rebuilding. */
@Module({
  controllers: [WorkspaceRequestsConsumer, IntegrationRequestsConsumer],
  providers: [RequestDecider],
})
export class DecisionsModule {}
