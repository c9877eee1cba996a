import {
  BROADCASTS_REQUEST_TYPES,
  NotificationBody,
  NotificationSendBody,
  readNotificationDefinition,
} from '@cms/contracts';
import { acceptedReading } from '@cms/http';
import { Body, Controller, Delete, Get, Inject, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { ContactsApi } from '../contacts-api/contacts-api';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { PathId } from '../ids/path-id.decorator';
import { MESSAGING_RULES } from '../messaging-api/messaging-api';
import { Documented, one, page, type OperationDoc } from '../openapi/documented.decorator';
import { NOTIFICATION_BODIES } from '../openapi/schemas/notifications';
import { BroadcastsApi } from './broadcasts-api';
import { readSendBody, type SendRoute } from './send-body';

const REFUSALS =
  'Refused with 422 and a pointer under `/data/attributes/`: a blank `name` or one over 255 characters; a `template_id` or `target_group_id` that names no template or audience of the workspace; `variables` that is not an object or is over 64 KiB as JSON; a `route` that is neither null nor 1 to 4 steps, or a step a message would be refused for (`route/<j>/channel_id`, `route/<j>/template_id`: a channel or template the workspace does not have, a template of another channel type than its step); a `schedule` that is a time in the past or a cron expression that does not parse (five fields); an unknown `schedule_timezone`; a `purpose` other than `transactional` or `marketing`; a `throttle_per_minute` that is neither null nor 1 to 1,000,000; an attribute a notification does not have.';

/** The two send routes are one operation under two paths (interface specification, Notifications). */
function sendDoc(route: SendRoute): OperationDoc {
  return {
    tag: 'Notifications',
    summary: route === 'send' ? 'Send a notification' : 'Send a notification (batch-send)',
    description: `Queues a send of the notification to its saved audience, with its saved template and variables, as the Send now action of the console does (\`/send\` and \`/batch-send\` behave the same). \`notification_audience\` and \`notification_template\` are deprecated and ignored (strings${route === 'batch-send' ? ' or null' : ''}). With \`test_mode\`, one message goes to \`test_phone\` (a number with its country code) instead: to the contact with that phone, made when the workspace has none, through the notification's route as \`transactional\`, whether or not the notification is enabled. Refused with 422 at \`/data/attributes/notification_id\` when it is missing, not an id, names no notification of the workspace or, for a send to the audience, a disabled one; at \`/data/attributes/test_phone\` when \`test_mode\` has no usable \`test_phone\`. The send's progress is read at \`GET /api/v1/notification-sends/{id}\`.`,
    answers: {
      202: { description: 'Queued: the send.', schema: one('NotificationSendAccepted') },
    },
  };
}

/** Notifications (extensions §13): decided and read by the broadcasts service. */
@Controller('api/v1/notifications')
export class NotificationsApiController {
  constructor(
    @Inject(BroadcastsApi) private readonly api: BroadcastsApi,
    @Inject(ContactsApi) private readonly contacts: ContactsApi,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
  ) {}

  @Documented({
    tag: 'Notifications',
    summary: 'Create a notification',
    description: `Requires \`name\`, \`template_id\` and \`target_group_id\`; \`variables\` defaults to \`{}\`, \`route\` to null (the template's channel type, its default channel), \`schedule\` to null, \`schedule_timezone\` to \`UTC\`, \`enabled\` to true, \`purpose\` to \`marketing\`, \`throttle_per_minute\` to null. \`schedule\` is an ISO 8601 time with its offset (one send then) or a cron expression of five fields read in \`schedule_timezone\` (a send at each tick); \`next_run_at\` answers when the next one starts. ${REFUSALS}`,
    answers: { 201: { description: 'The notification.', schema: one('Notification') } },
  })
  @ApiBody({ schema: NOTIFICATION_BODIES.create })
  @Post()
  @PublicRoute(MESSAGING_RULES.create)
  async create(
    @Caller() caller: Principal,
    @Body() body: NotificationBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    // Read with the time of receipt as now, so a schedule in the past is refused before anything is recorded.
    const definition = acceptedReading(readNotificationDefinition({ ...body }, 'create', new Date()));
    const references = await this.api.referencesOf(caller, definition);
    const notificationId = await this.ids.next('notification');
    return this.api.write(reply, caller, BROADCASTS_REQUEST_TYPES.notificationCreate, {
      notification_id: notificationId,
      definition: { ...definition },
      ...references,
    });
  }

  @Documented({
    tag: 'Notifications',
    summary: 'List notifications',
    description: 'Oldest first. Every filter is an exact match, but `filter[search]`.',
    list: {
      filters: {
        name: 'The name.',
        template_name: "The template's name.",
        schedule: 'The schedule as stored (an ISO 8601 time or a cron expression).',
        target_group_id: 'The audience id.',
        'target_group.name': "The audience's name.",
        enabled: '`true` or `false`.',
        search: "A part of the name or of the template's name, in any case.",
      },
    },
    answers: { 200: { description: 'A page of notifications.', schema: page('Notification') } },
  })
  @Get()
  @PublicRoute(MESSAGING_RULES.read)
  list(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'notifications', request);
  }

  @Documented(sendDoc('send'))
  @ApiBody({ schema: NOTIFICATION_BODIES.send })
  @Post('send')
  @PublicRoute(MESSAGING_RULES.create)
  send(
    @Caller() caller: Principal,
    @Body() body: NotificationSendBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.queue(caller, body, 'send', reply);
  }

  @Documented(sendDoc('batch-send'))
  @ApiBody({ schema: NOTIFICATION_BODIES.batchSend })
  @Post('batch-send')
  @PublicRoute(MESSAGING_RULES.create)
  batchSend(
    @Caller() caller: Principal,
    @Body() body: NotificationSendBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.queue(caller, body, 'batch-send', reply);
  }

  @Documented({
    tag: 'Notifications',
    summary: 'Get a notification',
    answers: { 200: { description: 'The notification.', schema: one('Notification') } },
  })
  @Get(':id')
  @PublicRoute(MESSAGING_RULES.read)
  get(
    @Caller() caller: Principal,
    @PathId('id', 'Notification') notificationId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `notifications/${notificationId}`, request);
  }

  @Documented({
    tag: 'Notifications',
    summary: 'Change a notification',
    description: `Only the attributes sent change; null clears \`route\`, \`schedule\` and \`throttle_per_minute\`. A change of \`schedule\`, \`schedule_timezone\` or \`enabled\` moves \`next_run_at\`. ${REFUSALS}`,
    answers: { 200: { description: 'The notification as changed.', schema: one('Notification') } },
  })
  @ApiBody({ schema: NOTIFICATION_BODIES.update })
  @Patch(':id')
  @PublicRoute(MESSAGING_RULES.update)
  async update(
    @Caller() caller: Principal,
    @PathId('id', 'Notification') notificationId: number,
    @Body() body: NotificationBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const changes = acceptedReading(readNotificationDefinition({ ...body }, 'update', new Date()));
    const references = await this.api.referencesOf(caller, changes);
    return this.api.write(reply, caller, BROADCASTS_REQUEST_TYPES.notificationUpdate, {
      notification_id: notificationId,
      changes: { ...changes },
      ...references,
    });
  }

  @Documented({
    tag: 'Notifications',
    summary: 'Delete a notification',
    description:
      'Frees its template and audience at once, and cancels its sends that have not finished (they stay readable).',
    answers: { 204: { description: 'Deleted.' } },
  })
  @Delete(':id')
  @PublicRoute(MESSAGING_RULES.delete)
  remove(
    @Caller() caller: Principal,
    @PathId('id', 'Notification') notificationId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, BROADCASTS_REQUEST_TYPES.notificationDelete, {
      notification_id: notificationId,
    });
  }

  @Documented({
    tag: 'Notifications',
    summary: "List a notification's sends",
    description: 'Newest first: sends to the audience, scheduled ones and test sends alike.',
    list: { filters: {} },
    answers: { 200: { description: 'A page of sends.', schema: page('NotificationSend') } },
  })
  @Get(':id/sends')
  @PublicRoute(MESSAGING_RULES.read)
  sends(
    @Caller() caller: Principal,
    @PathId('id', 'Notification') notificationId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `notifications/${notificationId}/sends`, request);
  }

  /**
   * Records the send the body asks for. A test send needs its contact in the request, so that deciding
   * it reads nothing another topic feeds: the contact is found or made first, once the notification is
   * known to exist.
   */
  private async queue(
    caller: Principal,
    body: NotificationSendBody | undefined,
    route: SendRoute,
    reply: FastifyReply,
  ): Promise<unknown> {
    const asked = readSendBody({ ...body }, route);
    if (!asked.test_mode) {
      return this.api.write(reply, caller, BROADCASTS_REQUEST_TYPES.notificationSend, asked);
    }
    await this.api.notificationMustExist(caller, asked.notification_id);
    const contactId = await this.contacts.contactWithPhone(caller, asked.test_phone);
    return this.api.write(reply, caller, BROADCASTS_REQUEST_TYPES.notificationSend, {
      ...asked,
      test_contact_id: contactId,
    });
  }
}
