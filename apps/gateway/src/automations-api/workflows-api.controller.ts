import { AUTOMATIONS_REQUEST_TYPES, readWorkflowDefinition, WorkflowBody } from '@cms/contracts';
import { acceptedReading } from '@cms/http';
import { Body, Controller, Delete, Get, Inject, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { PathId } from '../ids/path-id.decorator';
import { MESSAGING_RULES } from '../messaging-api/messaging-api';
import { Documented, one, page } from '../openapi/documented.decorator';
import { AutomationsApi } from './automations-api';

/** The definition as readWorkflowDefinition reads it, or the 422 of its problems, before anything is recorded. */
function definitionOf(body: WorkflowBody | undefined, mode: 'create' | 'update') {
  return acceptedReading(readWorkflowDefinition(body ?? {}, mode));
}

const REFUSALS =
  'Refused with 422 and a pointer under `/data/attributes/`: an event name that breaks the event-name rule (`trigger/event`, `goal/event`); `goal/within` over P90D; no steps or more than 50; a missing or repeated step `id` (`steps/<i>/id`); an unknown `type`; a `next`, `else` or case `next` naming no step; a `wait` with none or more than one of `duration`, `until`, `until_date`, `until_event` (`steps/<i>`); an `until_event` with a bad event, no `timeout`, a `timeout` over P90D or a `timeout_next` naming no step; criteria the language cannot read; a route a message would be refused for (`steps/<i>/route/<j>/template_id`, …); a tag id that names no tag (`steps/<i>/add_tags/<k>`).';

/** Workflows (extensions §12): decided and read by the automations service. */
@Controller('api/v1/workflows')
export class WorkflowsApiController {
  constructor(
    @Inject(AutomationsApi) private readonly api: AutomationsApi,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
  ) {}

  @Documented({
    tag: 'Workflows',
    summary: 'Create a workflow',
    description: `Requires \`name\`, \`trigger\` and \`steps\` (at least one); \`enabled\` defaults to true, \`goal\` to null, \`re_entry\` to \`after_exit\`. Answers the workflow at version 1. ${REFUSALS}`,
    answers: { 201: { description: 'The workflow.', schema: one('Workflow') } },
  })
  @Post()
  @PublicRoute(MESSAGING_RULES.create)
  async create(
    @Caller() caller: Principal,
    @Body() body: WorkflowBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const definition = definitionOf(body, 'create');
    await this.api.referencesMustExist(caller, definition.steps);
    const workflowId = await this.ids.next('workflow');
    return this.api.write(reply, caller, AUTOMATIONS_REQUEST_TYPES.workflowCreate, {
      ...definition,
      workflow_id: workflowId,
    } as never);
  }

  @Documented({
    tag: 'Workflows',
    summary: 'List workflows',
    description: 'Oldest first.',
    list: { filters: { enabled: '`true` or `false`.', name: 'The exact name.' } },
    answers: { 200: { description: 'A page of workflows.', schema: page('Workflow') } },
  })
  @Get()
  @PublicRoute(MESSAGING_RULES.read)
  list(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'workflows', request);
  }

  @Documented({
    tag: 'Workflows',
    summary: 'Get a workflow',
    answers: { 200: { description: 'The workflow.', schema: one('Workflow') } },
  })
  @Get(':id')
  @PublicRoute(MESSAGING_RULES.read)
  get(
    @Caller() caller: Principal,
    @PathId('id', 'Workflow') workflowId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `workflows/${workflowId}`, request);
  }

  @Documented({
    tag: 'Workflows',
    summary: 'Change a workflow',
    description: `Only the attributes sent change. A \`trigger\`, \`steps\`, \`goal\` or \`re_entry\` different from the stored one makes a new \`version\`; runs finish on the version they started with. ${REFUSALS}`,
    answers: { 200: { description: 'The workflow.', schema: one('Workflow') } },
  })
  @Patch(':id')
  @PublicRoute(MESSAGING_RULES.update)
  async update(
    @Caller() caller: Principal,
    @PathId('id', 'Workflow') workflowId: number,
    @Body() body: WorkflowBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const changes = definitionOf(body, 'update');
    await this.api.referencesMustExist(caller, changes.steps);
    return this.api.write(reply, caller, AUTOMATIONS_REQUEST_TYPES.workflowUpdate, {
      workflow_id: workflowId,
      changes: changes as unknown as Record<string, unknown>,
    });
  }

  @Documented({
    tag: 'Workflows',
    summary: 'Delete a workflow',
    answers: { 204: { description: 'Deleted.' } },
  })
  @Delete(':id')
  @PublicRoute(MESSAGING_RULES.delete)
  remove(
    @Caller() caller: Principal,
    @PathId('id', 'Workflow') workflowId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, AUTOMATIONS_REQUEST_TYPES.workflowDelete, {
      workflow_id: workflowId,
    });
  }
}
