import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { PathId } from '../ids/path-id.decorator';
import { MESSAGING_RULES } from '../messaging-api/messaging-api';
import { Documented, one, page } from '../openapi/documented.decorator';
import { AutomationsApi } from './automations-api';

/** Runs of workflows (extensions §12, Runs): read only, read from the automations service. */
@Controller('api/v1')
export class WorkflowRunsApiController {
  constructor(@Inject(AutomationsApi) private readonly api: AutomationsApi) {}

  @Documented({
    tag: 'Workflows',
    summary: "List a workflow's runs",
    description:
      'Newest first (by `started_at`). A deleted workflow is 404 here; its runs stay readable at `GET /api/v1/workflow-runs/{id}`.',
    list: {
      filters: {
        status: 'A status (active, waiting, completed, goal_reached, exited, failed).',
        contact_id: 'A contact id.',
      },
    },
    answers: { 200: { description: 'A page of runs.', schema: page('WorkflowRun') } },
  })
  @Get('workflows/:id/runs')
  @PublicRoute(MESSAGING_RULES.read)
  list(
    @Caller() caller: Principal,
    @PathId('id', 'Workflow') workflowId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `workflows/${workflowId}/runs`, request);
  }

  @Documented({
    tag: 'Workflows',
    summary: 'Get a workflow run',
    description: 'With its history, one entry per step run. Readable after its workflow is deleted.',
    answers: { 200: { description: 'The run.', schema: one('WorkflowRun') } },
  })
  @Get('workflow-runs/:id')
  @PublicRoute(MESSAGING_RULES.read)
  get(
    @Caller() caller: Principal,
    @PathId('id', 'Workflow run') runId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `workflow-runs/${runId}`, request);
  }
}
