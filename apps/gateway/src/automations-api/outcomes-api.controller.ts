import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { PathId } from '../ids/path-id.decorator';
import { MESSAGING_RULES } from '../messaging-api/messaging-api';
import { Documented, one, page } from '../openapi/documented.decorator';
import { AutomationsApi } from './automations-api';

/** Outcomes (extensions §12, Goals and outcomes): read only, read from the automations service. */
@Controller('api/v1/outcomes')
export class OutcomesApiController {
  constructor(@Inject(AutomationsApi) private readonly api: AutomationsApi) {}

  @Documented({
    tag: 'Outcomes',
    summary: 'List outcomes',
    description: 'Newest first.',
    list: { filters: { workflow_id: 'A workflow id.', contact_id: 'A contact id.' } },
    answers: { 200: { description: 'A page of outcomes.', schema: page('Outcome') } },
  })
  @Get()
  @PublicRoute(MESSAGING_RULES.read)
  list(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'outcomes', request);
  }

  @Documented({
    tag: 'Outcomes',
    summary: 'Get an outcome',
    answers: { 200: { description: 'The outcome.', schema: one('Outcome') } },
  })
  @Get(':id')
  @PublicRoute(MESSAGING_RULES.read)
  get(
    @Caller() caller: Principal,
    @PathId('id', 'Outcome') outcomeId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `outcomes/${outcomeId}`, request);
  }
}
