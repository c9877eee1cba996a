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
import { AutomationsApi } from '../automations-api/automations-api';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { PathId } from '../ids/path-id.decorator';
import { Documented, one, page } from '../openapi/documented.decorator';
import { refuseUses } from '../proxy/referrers';
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
    @Inject(AutomationsApi) private readonly automations: AutomationsApi,
  ) {}

  @Documented({
    tag: 'Channels',
    summary: 'Create a channel',
    description:
      'The provider must serve the channel type and the credentials must hold everything it needs (→ 422 at the field). The first channel of a type is its default; `is_default: true` takes the flag from the current default. Credentials are answered masked, never in clear; `callback_url` is the address to give the provider.',
    answers: { 201: { description: 'The channel, credentials masked.', schema: one('Channel') } },
  })
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

  @Documented({
    tag: 'Channels',
    summary: 'List channels',
    description: 'Oldest first.',
    list: {
      filters: {
        type: 'A channel type (whatsapp, sms, email, rcs, telegram, messenger, instagram, browser_push).',
      },
    },
    answers: { 200: { description: 'A page of channels, credentials masked.', schema: page('Channel') } },
  })
  @Get()
  @PublicRoute(MESSAGING_RULES.read)
  list(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'channels', request);
  }

  @Documented({
    tag: 'Channels',
    summary: 'Get a channel',
    answers: { 200: { description: 'The channel, credentials masked.', schema: one('Channel') } },
  })
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

  @Documented({
    tag: 'Channels',
    summary: 'Update a channel',
    description:
      'Only the fields sent change. `credentials` and `metadata` are merged one level deep (a member set to null is removed) and the credentials must still hold every one the provider needs. `status` may be set to `active` or `disabled` (a disabled channel sends nothing: its messages fail with `channel_disabled`). `is_default: true` makes it the one default channel of its type.',
    answers: { 200: { description: 'The channel as changed, credentials masked.', schema: one('Channel') } },
  })
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

  @Documented({
    tag: 'Channels',
    summary: 'Delete a channel',
    description:
      'Deleting the default channel of a type passes the flag to the oldest channel of the type left.',
    answers: {
      204: { description: 'Deleted.' },
      409: {
        description:
          'A bot\'s `settings.channel_id` names the channel (`Channel 3 is used by bot 2 ("Welcome")`); change or delete the bots first.',
      },
    },
  })
  @Delete(':id')
  @PublicRoute(MESSAGING_RULES.delete)
  async remove(
    @Caller() caller: Principal,
    @PathId('id', 'Channel') channelId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    refuseUses(409, [await this.automations.channelBotUse(caller, channelId)]);
    return this.api.write(reply, caller, MESSAGING_REQUEST_TYPES.channelDelete, { channel_id: channelId });
  }

  @Documented({
    tag: 'Channels',
    summary: "Add a browser's push subscription",
    description:
      "Takes the browser's PushSubscription JSON on a `browser_push` channel (another type → 422). The endpoint must be https to a public address (→ 422 at `/data/attributes/endpoint`). The same endpoint again answers the same `subscriber_id` and `created_at` (201), with the keys it last sent. A contact's `browser_push` channel link holds the `subscriber_id`.",
    answers: { 201: { description: 'The subscription.', schema: one('PushSubscription') } },
  })
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

  @Documented({
    tag: 'Channels',
    summary: 'Simulate an inbound message on a sandbox channel',
    description:
      'Acts as an inbound message from `from` (extensions §9.5): matched to a contact (an unknown sender on a phone channel becomes one), and an opt-out or opt-in keyword changes the suppression list and the consent. Sandbox channels only; any other channel → 404.',
    answers: { 202: { description: 'The inbound message, as recorded.', schema: one('InboundMessage') } },
  })
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
