import {
  BatchUpsertContactsBody,
  CONTACT_REQUEST_TYPES,
  CreateTagBody,
  EVENT_REQUEST_TYPES,
  LINK_CHANNELS,
  LinkChannelBody,
  RecordEventBody,
  TAG_REQUEST_TYPES,
  TagAssignmentBody,
  UpdateContactBody,
  UpdateTagBody,
  UpsertContactBody,
  type LinkChannel,
  type RequestPayloads,
  type RequestType,
} from '@cms/contracts';
import { JsonApiException } from '@cms/http';
import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  Inject,
  Param,
  Patch,
  Post,
  Put,
  Req,
  Res,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { PathId } from '../ids/path-id.decorator';
import { queryOf, UpstreamProxy } from '../proxy/upstream.proxy';
import { WritePathService, type WriteAnswer } from '../write-path/write-path.service';

const READ = { permission: 'read', bucket: 'api', feature: 'api' } as const;
const CREATE = { permission: 'create', bucket: 'api', feature: 'api' } as const;
const UPDATE = { permission: 'update', bucket: 'api', feature: 'api' } as const;
const DELETE = { permission: 'delete', bucket: 'api', feature: 'api' } as const;

function isLinkChannel(channel: string): channel is LinkChannel {
  return (LINK_CHANNELS as readonly string[]).includes(channel);
}

/** Contacts, tags and events: validated and minted here, decided by the contacts service. */
@Controller('api/v1')
export class ContactsApiController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(WritePathService) private readonly writePath: WritePathService,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
    @Inject(UpstreamProxy) private readonly proxy: UpstreamProxy,
  ) {}

  @Post('events')
  @PublicRoute({ permission: 'create', bucket: 'events', feature: 'events' })
  async recordEvent(
    @Caller() caller: Principal,
    @Body() body: RecordEventBody,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 255)) {
      throw JsonApiException.validation([
        {
          detail: 'The Idempotency-Key header must be 1 to 255 characters.',
          source: { pointer: '/data/attributes/idempotency_key' },
        },
      ]);
    }
    const [eventId, contactId] = await Promise.all([this.ids.next('event'), this.ids.next('contact')]);
    return this.write(reply, caller, EVENT_REQUEST_TYPES.record, {
      ...body,
      event_id: eventId,
      contact_id: contactId,
      contact_limit: this.contactLimit(caller),
      ...(idempotencyKey !== undefined ? { idempotency_key: idempotencyKey } : {}),
    });
  }

  @Get('events')
  @PublicRoute(READ)
  listEvents(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.read(reply, caller, 'events', request);
  }

  @Post('contacts/upsert')
  @PublicRoute(CREATE)
  async upsertContact(
    @Caller() caller: Principal,
    @Body() body: UpsertContactBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const contactId = await this.ids.next('contact');
    return this.write(reply, caller, CONTACT_REQUEST_TYPES.upsert, {
      ...body,
      contact_id: contactId,
      contact_limit: this.contactLimit(caller),
    });
  }

  @Post('contacts/batch')
  @PublicRoute(CREATE)
  async batchUpsert(
    @Caller() caller: Principal,
    @Body() body: BatchUpsertContactsBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const ids = await this.ids.many('contact', body.contacts.length);
    const contacts = body.contacts.map((contact, index) => ({ ...contact, contact_id: ids[index]! }));
    return this.write(reply, caller, CONTACT_REQUEST_TYPES.batchUpsert, {
      contacts,
      contact_limit: this.contactLimit(caller),
    });
  }

  @Get('contacts')
  @PublicRoute(READ)
  listContacts(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.read(reply, caller, 'contacts', request);
  }

  @Get('contacts/:contact_id')
  @PublicRoute(READ)
  getContact(
    @Caller() caller: Principal,
    @PathId('contact_id', 'Contact') contactId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.read(reply, caller, `contacts/${contactId}`, request);
  }

  @Put('contacts/:contact_id')
  @PublicRoute(UPDATE)
  @ApiOperation({
    summary: 'Update a contact',
    description:
      'Names its contact by id and matches no other: a phone, external_id or email that another contact ' +
      'of the workspace holds is refused (422 with a pointer to each such field, such as ' +
      '`/data/attributes/email`) and nothing changes. To move an identifier, upsert with it.',
  })
  @ApiResponse({
    status: 422,
    description:
      'Invalid fields, or a phone, external_id or email that another contact holds; each with its pointer.',
  })
  updateContact(
    @Caller() caller: Principal,
    @PathId('contact_id', 'Contact') contactId: number,
    @Body() body: UpdateContactBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.write(reply, caller, CONTACT_REQUEST_TYPES.update, {
      ...body,
      contact_id: contactId,
    });
  }

  @Put('contacts/:contact_id/channels/:channel')
  @PublicRoute(UPDATE)
  linkChannel(
    @Caller() caller: Principal,
    @PathId('contact_id', 'Contact') contactId: number,
    @Param('channel') channel: string,
    @Body() body: LinkChannelBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    if (!isLinkChannel(channel)) {
      throw JsonApiException.notFound(
        `Channel ${channel} cannot be linked; use one of ${LINK_CHANNELS.join(', ')}.`,
      );
    }
    return this.write(reply, caller, CONTACT_REQUEST_TYPES.channelLink, {
      contact_id: contactId,
      channel,
      external_id: body.external_id,
    });
  }

  @Post('tags')
  @PublicRoute(CREATE)
  async createTag(
    @Caller() caller: Principal,
    @Body() body: CreateTagBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const tagId = await this.ids.next('tag');
    return this.write(reply, caller, TAG_REQUEST_TYPES.create, { ...body, tag_id: tagId });
  }

  @Get('tags')
  @PublicRoute(READ)
  listTags(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.read(reply, caller, 'tags', request);
  }

  @Post('tags/sync')
  @PublicRoute(UPDATE)
  syncTags(
    @Caller() caller: Principal,
    @Body() body: TagAssignmentBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.write(reply, caller, TAG_REQUEST_TYPES.sync, { ...body });
  }

  @Post('tags/attach')
  @PublicRoute(UPDATE)
  attachTags(
    @Caller() caller: Principal,
    @Body() body: TagAssignmentBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.write(reply, caller, TAG_REQUEST_TYPES.attach, { ...body });
  }

  @Post('tags/detach')
  @PublicRoute(UPDATE)
  detachTags(
    @Caller() caller: Principal,
    @Body() body: TagAssignmentBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.write(reply, caller, TAG_REQUEST_TYPES.detach, { ...body });
  }

  @Get('tags/:tag_id')
  @PublicRoute(READ)
  getTag(
    @Caller() caller: Principal,
    @PathId('tag_id', 'Tag') tagId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.read(reply, caller, `tags/${tagId}`, request);
  }

  @Patch('tags/:tag_id')
  @PublicRoute(UPDATE)
  updateTag(
    @Caller() caller: Principal,
    @PathId('tag_id', 'Tag') tagId: number,
    @Body() body: UpdateTagBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.write(reply, caller, TAG_REQUEST_TYPES.update, { ...body, tag_id: tagId });
  }

  @Delete('tags/:tag_id')
  @PublicRoute(DELETE)
  deleteTag(
    @Caller() caller: Principal,
    @PathId('tag_id', 'Tag') tagId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.write(reply, caller, TAG_REQUEST_TYPES.delete, { tag_id: tagId });
  }

  private contactLimit(caller: Principal): number {
    return this.config.plans[caller.plan].storedContacts;
  }

  private async write<T extends RequestType>(
    reply: FastifyReply,
    caller: Principal,
    type: T,
    data: RequestPayloads[T],
  ): Promise<unknown> {
    const answer: WriteAnswer = await this.writePath.submit({ type, workspaceId: caller.workspaceId, data });
    void reply.status(answer.status);
    return answer.resource === undefined ? undefined : { data: answer.resource };
  }

  private async read(
    reply: FastifyReply,
    caller: Principal,
    path: string,
    request: FastifyRequest,
  ): Promise<unknown> {
    const answer = await this.proxy.get('contacts', path, queryOf(request), caller.workspaceId);
    void reply.status(answer.status);
    return answer.body;
  }
}
