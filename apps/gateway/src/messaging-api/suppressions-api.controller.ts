import { CreateSuppressionBody, SUPPRESSION_REQUEST_TYPES } from '@cms/contracts';
import { Body, Controller, Delete, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { PathSuppressionId } from '../ids/path-id.decorator';
import { MESSAGING_RULES, MessagingApi } from './messaging-api';

/**
 * The suppression list (extensions §9): addresses of a workspace that are not messaged on a channel
 * type. Entries come from opt-out keywords, providers and bounces; customers add (`manual`) and remove
 * them here. The messaging service normalises the address and decides the rest.
 */
@Controller('api/v1/suppressions')
export class SuppressionsApiController {
  constructor(@Inject(MessagingApi) private readonly api: MessagingApi) {}

  @Post()
  @PublicRoute(MESSAGING_RULES.create)
  create(
    @Caller() caller: Principal,
    @Body() body: CreateSuppressionBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, SUPPRESSION_REQUEST_TYPES.create, {
      channel: body.channel,
      address: body.address,
    });
  }

  @Get()
  @PublicRoute(MESSAGING_RULES.read)
  list(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'suppressions', request);
  }

  @Get(':id')
  @PublicRoute(MESSAGING_RULES.read)
  get(
    @Caller() caller: Principal,
    @PathSuppressionId('id', 'Suppression') suppressionId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `suppressions/${suppressionId}`, request);
  }

  @Delete(':id')
  @PublicRoute(MESSAGING_RULES.delete)
  remove(
    @Caller() caller: Principal,
    @PathSuppressionId('id', 'Suppression') suppressionId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, SUPPRESSION_REQUEST_TYPES.delete, {
      suppression_id: suppressionId,
    });
  }
}
