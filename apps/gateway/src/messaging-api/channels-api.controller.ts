import {
  CreateChannelBody,
  CreatePushSubscriptionBody,
  MESSAGING_REQUEST_TYPES,
  SandboxInboundBody,
  UpdateChannelBody,
} from '@cms/contracts';
import { Body, Controller, Delete, Get, Inject, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { PathId } from '../ids/path-id.decorator';
import { MESSAGING_RULES, MessagingApi } from './messaging-api';

/**
 * Channels (extensions §9): provider connections of a workspace. The gateway mints the channel id and
 * seals the credentials; the messaging service checks them against the provider and decides the rest.
 */
@Controller('api/v1/channels')
export class ChannelsApiController {
  constructor(
    @Inject(MessagingApi) private readonly api: MessagingApi,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post()
  @PublicRoute(MESSAGING_RULES.create)
  async create(
    @Caller() caller: Principal,
    @Body() body: CreateChannelBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const channelId = await this.ids.next('channel');
    return this.api.write(reply, caller, MESSAGING_REQUEST_TYPES.channelCreate, {
      channel_id: channelId,
      type: body.type,
      name: body.name,
      provider: body.provider,
      credentials_sealed: body.credentials === undefined ? null : this.api.seal(body.credentials),
      metadata: body.metadata ?? {},
      ...(body.is_default !== undefined ? { is_default: body.is_default } : {}),
    });
  }

  @Get()
  @PublicRoute(MESSAGING_RULES.read)
  list(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'channels', request);
  }

  @Get(':id')
  @PublicRoute(MESSAGING_RULES.read)
  get(
    @Caller() caller: Principal,
    @PathId('id', 'Channel') channelId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `channels/${channelId}`, request);
  }

  @Patch(':id')
  @PublicRoute(MESSAGING_RULES.update)
  update(
    @Caller() caller: Principal,
    @PathId('id', 'Channel') channelId: number,
    @Body() body: UpdateChannelBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const { credentials, ...fields } = body;
    return this.api.write(reply, caller, MESSAGING_REQUEST_TYPES.channelUpdate, {
      ...fields,
      channel_id: channelId,
      ...(credentials !== undefined ? { credentials_sealed: this.api.seal(credentials) } : {}),
    });
  }

  @Delete(':id')
  @PublicRoute(MESSAGING_RULES.delete)
  remove(
    @Caller() caller: Principal,
    @PathId('id', 'Channel') channelId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, MESSAGING_REQUEST_TYPES.channelDelete, { channel_id: channelId });
  }

  @Post(':id/push-subscriptions')
  @PublicRoute(MESSAGING_RULES.create)
  subscribe(
    @Caller() caller: Principal,
    @PathId('id', 'Channel') channelId: number,
    @Body() body: CreatePushSubscriptionBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, MESSAGING_REQUEST_TYPES.pushSubscriptionCreate, {
      channel_id: channelId,
      endpoint: body.endpoint,
      keys: { p256dh: body.keys.p256dh, auth: body.keys.auth },
    });
  }

  @Post(':id/sandbox/inbound')
  @PublicRoute(MESSAGING_RULES.create)
  async sandboxInbound(
    @Caller() caller: Principal,
    @PathId('id', 'Channel') channelId: number,
    @Body() body: SandboxInboundBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    // The contact an unknown sender on a phone channel becomes: ids are minted before the log.
    const contactId = await this.ids.next('contact');
    return this.api.write(reply, caller, MESSAGING_REQUEST_TYPES.sandboxInbound, {
      channel_id: channelId,
      from: body.from,
      text: body.text,
      contact_id: contactId,
      contact_limit: this.config.plans[caller.plan].storedContacts,
    });
  }
}
