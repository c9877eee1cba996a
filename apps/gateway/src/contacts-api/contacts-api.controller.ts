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

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { PathId } from '../ids/path-id.decorator';
import { Documented, one, page } from '../openapi/documented.decorator';
import { ContactsApi } from './contacts-api';

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
    @Inject(ContactsApi) private readonly api: ContactsApi,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
  ) {}

  @Post('events')
  @PublicRoute({ permission: 'create', bucket: 'events', feature: 'events' })
  @Documented({
    tag: 'Events',
    summary: 'Record an event',
    description:
      'Records that something happened to a contact and starts every active workflow listening for the name. ' +
      'The contact is matched by phone, then external_id, then email, and created when none matches; the ' +
      'values sent update it (newer values win). Needs the `create` permission; every plan may send events ' +
      '(counted in their own budget of 1,200 a minute). A repeated Idempotency-Key answers 200 with the ' +
      'original event and records nothing again, even when the body differs.',
    headers: {
      'Idempotency-Key': {
        description:
          'Optional, 1–255 characters: identifies the real-world occurrence, so a retry is recorded once.',
      },
    },
    answers: {
      202: { description: 'Recorded: the event.', schema: one('RecordedEvent') },
      200: {
        description: 'The Idempotency-Key was already used: the original event; nothing recorded again.',
        schema: one('RecordedEvent'),
      },
    },
  })
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
    return this.api.write(reply, caller, EVENT_REQUEST_TYPES.record, {
      ...body,
      event_id: eventId,
      contact_id: contactId,
      contact_limit: this.api.contactLimit(caller),
      ...(idempotencyKey !== undefined ? { idempotency_key: idempotencyKey } : {}),
    });
  }

  @Get('events')
  @PublicRoute(READ)
  @Documented({
    tag: 'Events',
    summary: 'List events',
    description: 'Newest first (by time of receipt). Needs the `read` permission.',
    list: {
      filters: {
        name: 'Only events of this name (exact).',
        contact_id: 'Only events of this contact (an id).',
      },
    },
    query: {
      name: { description: 'The same as `filter[name]`.', schema: { type: 'string' } },
    },
    answers: { 200: { description: 'A page of events.', schema: page('RecordedEvent') } },
  })
  listEvents(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'events', request);
  }

  @Post('contacts/upsert')
  @PublicRoute(CREATE)
  @Documented({
    tag: 'Contacts',
    summary: 'Create or update a contact',
    description:
      'Matches the contact by phone, then external_id, then email (within the workspace) and updates it, or ' +
      'creates one: 201 when created, 200 when updated. An identifier another contact holds moves to this ' +
      'one. `data` is merged key by key. Needs the `create` permission; a new contact past the plan’s ' +
      'stored-contacts limit is 422 at `/data/attributes/contact`.',
    answers: {
      201: { description: 'Created: the contact.', schema: one('Contact') },
      200: {
        description: 'An existing contact matched and was updated: the contact.',
        schema: one('Contact'),
      },
    },
  })
  async upsertContact(
    @Caller() caller: Principal,
    @Body() body: UpsertContactBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.passOn(reply, await this.api.upsert(caller, body));
  }

  @Post('contacts/batch')
  @PublicRoute(CREATE)
  @Documented({
    tag: 'Contacts',
    summary: 'Create or update contacts in a batch',
    description:
      'Up to 1,000 contacts, each an upsert of its own applied in order. Always 200 when the body is valid: ' +
      'each element succeeds (201 created, 200 updated) or fails alone (its own status and errors, ' +
      'pointing into `/data/attributes/contacts/<index>`). Contacts are answered without `data` and `tags`. ' +
      'Needs the `create` permission.',
    answers: {
      200: { description: 'One result per element, and their counts.', schema: one('ContactBatchResult') },
    },
  })
  async batchUpsert(
    @Caller() caller: Principal,
    @Body() body: BatchUpsertContactsBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const ids = await this.ids.many('contact', body.contacts.length);
    const contacts = body.contacts.map((contact, index) => ({ ...contact, contact_id: ids[index]! }));
    return this.api.write(reply, caller, CONTACT_REQUEST_TYPES.batchUpsert, {
      contacts,
      contact_limit: this.api.contactLimit(caller),
    });
  }

  @Get('contacts')
  @PublicRoute(READ)
  @Documented({
    tag: 'Contacts',
    summary: 'List contacts',
    description: 'Oldest first (by id). Needs the `read` permission.',
    list: {
      filters: {
        phone: 'The phone (read as the events endpoint reads it, so any format of the same number matches).',
        email: 'The email, in any case.',
        external_id: 'The external_id (exact).',
        name: 'The whole name, in any case.',
        tag: 'Contacts holding this tag: a tag id, or otherwise a tag name (exact).',
        search: 'A part of the name, email or phone, in any case.',
      },
    },
    answers: { 200: { description: 'A page of contacts.', schema: page('Contact') } },
  })
  listContacts(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'contacts', request);
  }

  @Get('contacts/:contact_id')
  @PublicRoute(READ)
  @Documented({
    tag: 'Contacts',
    summary: 'Get a contact',
    description: 'Needs the `read` permission.',
    answers: { 200: { description: 'The contact.', schema: one('Contact') } },
  })
  getContact(
    @Caller() caller: Principal,
    @PathId('contact_id', 'Contact') contactId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `contacts/${contactId}`, request);
  }

  @Put('contacts/:contact_id')
  @PublicRoute(UPDATE)
  @Documented({
    tag: 'Contacts',
    summary: 'Update a contact',
    description:
      'Names its contact by id and matches no other: a phone, external_id or email that another contact ' +
      'of the workspace holds is refused (422 with a pointer to each such field, such as ' +
      '`/data/attributes/email`) and nothing changes. To move an identifier, upsert with it. ' +
      'Only the fields sent change; `data` is merged key by key. Needs the `update` permission.',
    answers: {
      200: { description: 'The contact as updated.', schema: one('Contact') },
      422: {
        description:
          'Invalid fields, or a phone, external_id or email that another contact holds; each with its pointer.',
      },
    },
  })
  updateContact(
    @Caller() caller: Principal,
    @PathId('contact_id', 'Contact') contactId: number,
    @Body() body: UpdateContactBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, CONTACT_REQUEST_TYPES.update, {
      ...body,
      contact_id: contactId,
    });
  }

  @Put('contacts/:contact_id/channels/:channel')
  @PublicRoute(UPDATE)
  @Documented({
    tag: 'Contacts',
    summary: 'Link a channel id to a contact',
    description:
      'Stores the contact’s id on `channel` (telegram, messenger, instagram or browser_push; any other is ' +
      '404). The id is moved from any other contact of the workspace that held it. Needs the `update` ' +
      'permission.',
    answers: { 200: { description: 'The contact with its channels.', schema: one('Contact') } },
  })
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
    return this.api.write(reply, caller, CONTACT_REQUEST_TYPES.channelLink, {
      contact_id: contactId,
      channel,
      external_id: body.external_id,
    });
  }

  @Post('tags')
  @PublicRoute(CREATE)
  @Documented({
    tag: 'Tags',
    summary: 'Create a tag',
    description: 'A name another tag of the workspace has is 422. Needs the `create` permission.',
    answers: { 201: { description: 'Created: the tag.', schema: one('Tag') } },
  })
  async createTag(
    @Caller() caller: Principal,
    @Body() body: CreateTagBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const tagId = await this.ids.next('tag');
    return this.api.write(reply, caller, TAG_REQUEST_TYPES.create, { ...body, tag_id: tagId });
  }

  @Get('tags')
  @PublicRoute(READ)
  @Documented({
    tag: 'Tags',
    summary: 'List tags',
    description: 'Oldest first (by id); no filters. Needs the `read` permission.',
    list: { filters: {} },
    answers: { 200: { description: 'A page of tags.', schema: page('Tag') } },
  })
  listTags(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'tags', request);
  }

  @Post('tags/sync')
  @PublicRoute(UPDATE)
  @Documented({
    tag: 'Tags',
    summary: 'Replace the tags of a contact',
    description:
      'Replaces every tag of the contact with `tag_ids`. A contact holds at most 1,000 tags (more → 422 at `/data/attributes/tag_ids`). A `contact_id` or tag id that names nothing in the workspace is 422 at its ' +
      'pointer. Needs the `update` permission.',
    answers: { 200: { description: 'The contact with its tags.', schema: one('Contact') } },
  })
  syncTags(
    @Caller() caller: Principal,
    @Body() body: TagAssignmentBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, TAG_REQUEST_TYPES.sync, { ...body });
  }

  @Post('tags/attach')
  @PublicRoute(UPDATE)
  @Documented({
    tag: 'Tags',
    summary: 'Add tags to a contact',
    description:
      'Adds `tag_ids` to the contact, keeping the tags it has. A contact holds at most 1,000 tags (more → 422 at `/data/attributes/tag_ids`). A `contact_id` or tag id that names nothing in the workspace is 422 at its ' +
      'pointer. Needs the `update` permission.',
    answers: { 200: { description: 'The contact with its tags.', schema: one('Contact') } },
  })
  attachTags(
    @Caller() caller: Principal,
    @Body() body: TagAssignmentBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, TAG_REQUEST_TYPES.attach, { ...body });
  }

  @Post('tags/detach')
  @PublicRoute(UPDATE)
  @Documented({
    tag: 'Tags',
    summary: 'Remove tags from a contact',
    description:
      'Removes `tag_ids` from the contact. A `contact_id` or tag id that names nothing in the workspace is 422 at its ' +
      'pointer. Needs the `update` permission.',
    answers: { 200: { description: 'The contact with its tags.', schema: one('Contact') } },
  })
  detachTags(
    @Caller() caller: Principal,
    @Body() body: TagAssignmentBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, TAG_REQUEST_TYPES.detach, { ...body });
  }

  @Get('tags/:tag_id')
  @PublicRoute(READ)
  @Documented({
    tag: 'Tags',
    summary: 'Get a tag',
    description: 'Needs the `read` permission.',
    answers: { 200: { description: 'The tag.', schema: one('Tag') } },
  })
  getTag(
    @Caller() caller: Principal,
    @PathId('tag_id', 'Tag') tagId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `tags/${tagId}`, request);
  }

  @Patch('tags/:tag_id')
  @PublicRoute(UPDATE)
  @Documented({
    tag: 'Tags',
    summary: 'Update a tag',
    description: 'Only the fields sent change. Needs the `update` permission.',
    answers: { 200: { description: 'The tag as updated.', schema: one('Tag') } },
  })
  updateTag(
    @Caller() caller: Principal,
    @PathId('tag_id', 'Tag') tagId: number,
    @Body() body: UpdateTagBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, TAG_REQUEST_TYPES.update, { ...body, tag_id: tagId });
  }

  @Delete('tags/:tag_id')
  @PublicRoute(DELETE)
  @Documented({
    tag: 'Tags',
    summary: 'Delete a tag',
    description: 'Detaches it from every contact. Needs the `delete` permission.',
    answers: { 204: { description: 'Deleted; no body.' } },
  })
  deleteTag(
    @Caller() caller: Principal,
    @PathId('tag_id', 'Tag') tagId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, TAG_REQUEST_TYPES.delete, { tag_id: tagId });
  }
}
