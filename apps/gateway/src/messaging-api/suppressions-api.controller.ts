import { CreateSuppressionBody, SUPPRESSION_REQUEST_TYPES } from '@cms/contracts';
import { Body, Controller, Delete, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { PathSuppressionId } from '../ids/path-id.decorator';
import { Documented, one, page } from '../openapi/documented.decorator';
import { MESSAGING_RULES, MessagingApi } from './messaging-api';

/**
 * The suppression list (extensions §9): addresses of a workspace that are not messaged on a channel
 * type. Entries come from opt-out keywords, providers and bounces; customers add (`manual`) and remove
 * them here. The messaging service normalises the address and decides the rest.
 */
@Controller('api/v1/suppressions')
export class SuppressionsApiController {
  constructor(@Inject(MessagingApi) private readonly api: MessagingApi) {}

  @Documented({
    tag: 'Suppressions',
    summary: 'Add an address to the suppression list',
    description:
      'Adds a `manual` entry (source `api`). `reason` may be left out and is `manual` when given (anything else → 422). The address is normalised for the channel type (E.164 for phone channels, lower case for email; anything else for the type → 422 at `/data/attributes/address`). An address already on the list for the channel type is not an error: the entry already there is answered with 200, whatever its reason and source.',
    answers: {
      201: { description: 'Added.', schema: one('Suppression') },
      200: { description: 'Already on the list: the entry there, unchanged.', schema: one('Suppression') },
    },
  })
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

  @Documented({
    tag: 'Suppressions',
    summary: 'List the suppression list',
    description: 'Oldest first.',
    list: {
      filters: {
        channel: 'A channel type.',
        address: 'An address, normalised like entries (an email in lower case, a phone number in E.164).',
        reason: 'opted_out, bounced, spam_complaint, invalid_recipient or manual (anything else → 422).',
      },
    },
    answers: { 200: { description: 'A page of entries.', schema: page('Suppression') } },
  })
  @Get()
  @PublicRoute(MESSAGING_RULES.read)
  list(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'suppressions', request);
  }

  @Documented({
    tag: 'Suppressions',
    summary: 'Get a suppression list entry',
    answers: { 200: { description: 'The entry.', schema: one('Suppression') } },
  })
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

  @Documented({
    tag: 'Suppressions',
    summary: 'Remove an address from the suppression list',
    description:
      'The address may be messaged again from the next send on. Removing an `opted_out` entry does not grant consent: a marketing message still needs it.',
    answers: { 204: { description: 'Removed.' } },
  })
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
