import { MAX_IDEMPOTENCY_KEY, MESSAGING_REQUEST_TYPES, routeProblems, SendMessageBody } from '@cms/contracts';
import { JsonApiException, type ValidationIssue } from '@cms/http';
import { Body, Controller, Get, Headers, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { PathMessageId } from '../ids/path-id.decorator';
import { Documented, one, page } from '../openapi/documented.decorator';
import { KnownContacts } from './known-contacts';
import { MESSAGING_RULES, MessagingApi } from './messaging-api';

const CONTACT_POINTER = '/data/attributes/contact_id';

/**
 * Messages (extensions §9): a send is checked here (the body, its route, the contact) and decided by
 * the messaging service, which names the message (`msg_…`) and answers 202, or 200 with the original
 * for a repeated Idempotency-Key.
 */
@Controller('api/v1/messages')
export class MessagesApiController {
  constructor(
    @Inject(MessagingApi) private readonly api: MessagingApi,
    @Inject(KnownContacts) private readonly contacts: KnownContacts,
  ) {}

  @Documented({
    tag: 'Messages',
    summary: 'Send a message',
    description:
      "Sends one message to `contact_id` along `route` (1–4 steps; each names a channel by `channel_id`, or by `channel` type for the workspace's default channel of that type, and a `template_id`; `wait_for` and `timeout` move the route to its next step when the status has not come in time). The contact must be the workspace's (→ 422 at `/data/attributes/contact_id`); channels and templates of another type than the step's → 422 with a pointer. Who may be messaged (recipient, suppression list, consent for `purpose: marketing`, the template's variables) is checked when the message goes out, not here: the answer is the message `queued`, and its later statuses are read with GET or received as message.* webhooks.",
    headers: {
      'Idempotency-Key': {
        description: 'A retry with the same key (1 to 255 characters) answers the original message with 200.',
      },
    },
    answers: {
      202: { description: 'Accepted: the message of the first route step, queued.', schema: one('Message') },
      200: {
        description:
          'A repeated Idempotency-Key: the original message as it stands when the retry is decided (nothing is sent again).',
        schema: one('Message'),
      },
    },
  })
  @Post()
  @PublicRoute(MESSAGING_RULES.create)
  async send(
    @Caller() caller: Principal,
    @Body() body: SendMessageBody,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const issues: ValidationIssue[] = routeProblems(body.route).map(({ pointer, detail }) => ({
      detail,
      source: { pointer },
    }));
    if (
      idempotencyKey !== undefined &&
      (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY)
    ) {
      issues.push({
        detail: `The Idempotency-Key header must be 1 to ${MAX_IDEMPOTENCY_KEY} characters.`,
        source: { pointer: '/data/attributes/idempotency_key' },
      });
    }
    if (issues.length > 0) throw JsonApiException.validation(issues);
    await this.contactMustExist(caller, body.contact_id);
    return this.api.write(reply, caller, MESSAGING_REQUEST_TYPES.messageSend, {
      ...body,
      ...(idempotencyKey !== undefined ? { idempotency_key: idempotencyKey } : {}),
    });
  }

  @Documented({
    tag: 'Messages',
    summary: 'List messages',
    description:
      'Newest first; outbound and inbound (`filter[direction]=inbound` for the messages contacts sent).',
    list: {
      filters: {
        status: 'A status (queued, sent, delivered, read, failed, suppressed, received).',
        channel: 'A channel type.',
        contact_id: 'A contact id.',
        workflow_id: 'A workflow id.',
        campaign_id: 'A campaign (notification) id.',
        direction: '`outbound` or `inbound`.',
      },
    },
    answers: { 200: { description: 'A page of messages.', schema: page('Message') } },
  })
  @Get()
  @PublicRoute(MESSAGING_RULES.read)
  list(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'messages', request);
  }

  @Documented({
    tag: 'Messages',
    summary: 'Get a message',
    description:
      'With its whole status history (late changes included) and its tracked links with their clicks.',
    answers: { 200: { description: 'The message.', schema: one('Message') } },
  })
  @Get(':id')
  @PublicRoute(MESSAGING_RULES.read)
  get(
    @Caller() caller: Principal,
    @PathMessageId('id', 'Message') messageId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `messages/${messageId}`, request);
  }

  /**
   * The contacts service's answer whether it holds the contact (KnownContacts): one it does not hold in
   * this workspace (another workspace's included) is 422 at `contact_id`; the service away is 503, as
   * for every read.
   */
  private async contactMustExist(caller: Principal, contactId: number): Promise<void> {
    if (await this.contacts.holds(caller.workspaceId, contactId)) return;
    throw JsonApiException.validation([
      { detail: `Contact ${contactId} was not found.`, source: { pointer: CONTACT_POINTER } },
    ]);
  }
}
