import { randomUUID } from 'node:crypto';

import {
  CreateWebhookEndpointBody,
  encryptSecret,
  generateWebhookSecret,
  UpdateWebhookEndpointBody,
  WEBHOOK_REQUEST_TYPES,
  type RequestPayloads,
  type RequestType,
} from '@cms/contracts';
import { Body, Controller, Delete, Get, Inject, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { PathUuid } from '../ids/path-id.decorator';
import { Documented, one, page } from '../openapi/documented.decorator';
import { queryOf, UpstreamProxy } from '../proxy/upstream.proxy';
import { WritePathService } from '../write-path/write-path.service';

const READ = { permission: 'read', bucket: 'api', feature: 'webhooks' } as const;
const CREATE = { permission: 'create', bucket: 'api', feature: 'webhooks' } as const;
const UPDATE = { permission: 'update', bucket: 'api', feature: 'webhooks' } as const;
const DELETE = { permission: 'delete', bucket: 'api', feature: 'webhooks' } as const;

/**
 * Outbound webhook endpoints (extensions §4), business and agency plans only. The signing secret is
 * made here, sealed with SECRETS_KEY for the log, and shown in clear only in the answer that made it.
 */
@Controller('api/v1/webhook-endpoints')
export class WebhookEndpointsApiController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(WritePathService) private readonly writePath: WritePathService,
    @Inject(UpstreamProxy) private readonly proxy: UpstreamProxy,
  ) {}

  @Documented({
    tag: 'Webhook endpoints',
    summary: 'Create a webhook endpoint',
    description:
      'An https URL on your server, an optional description and the event kinds it receives (see `webhooks`). Business and agency plans (others → 403). The answer shows the signing secret: it is never shown again. A URL that is not https, has no real host, carries user information, or names an address that is not public → 422 at `/data/attributes/url`; a workspace has at most 100 endpoints (→ 422). An endpoint receives the events that happen after it was made.',
    answers: { 201: { description: 'Created, with its secret.', schema: one('WebhookEndpointCreated') } },
  })
  @Post()
  @PublicRoute(CREATE)
  async create(
    @Caller() caller: Principal,
    @Body() body: CreateWebhookEndpointBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const secret = generateWebhookSecret();
    const answer = await this.write(reply, caller, WEBHOOK_REQUEST_TYPES.endpointCreate, {
      endpoint_id: randomUUID(),
      url: body.url,
      ...(body.description !== undefined ? { description: body.description } : {}),
      event_types: body.event_types,
      secret_sealed: encryptSecret(secret, this.config.secretsKey),
    });
    return { data: { ...answer, secret } };
  }

  @Documented({
    tag: 'Webhook endpoints',
    summary: 'List webhook endpoints',
    description: 'Never their secrets.',
    answers: { 200: { description: 'A page of endpoints.', schema: page('WebhookEndpoint') } },
    list: { filters: {} },
  })
  @Get()
  @PublicRoute(READ)
  list(@Caller() caller: Principal, @Req() request: FastifyRequest): Promise<unknown> {
    return this.read(caller, 'webhook-endpoints', request);
  }

  @Documented({
    tag: 'Webhook endpoints',
    summary: 'Read a webhook endpoint',
    description: 'Never its secret.',
    answers: { 200: { description: 'The endpoint.', schema: one('WebhookEndpoint') } },
  })
  @Get(':id')
  @PublicRoute(READ)
  get(
    @Caller() caller: Principal,
    @PathUuid('id', 'Webhook endpoint') endpointId: string,
    @Req() request: FastifyRequest,
  ): Promise<unknown> {
    return this.read(caller, `webhook-endpoints/${endpointId}`, request);
  }

  @Documented({
    tag: 'Webhook endpoints',
    summary: 'Change a webhook endpoint',
    description:
      'Only the fields sent change (a `null` description clears it). `enabled: true` switches a switched-off endpoint back on and resets its failure count (the deliveries held meanwhile go out); `enabled: false` switches it off (`disabled_reason: manual`).',
    answers: { 200: { description: 'Changed.', schema: one('WebhookEndpoint') } },
  })
  @Patch(':id')
  @PublicRoute(UPDATE)
  async update(
    @Caller() caller: Principal,
    @PathUuid('id', 'Webhook endpoint') endpointId: string,
    @Body() body: UpdateWebhookEndpointBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const resource = await this.write(reply, caller, WEBHOOK_REQUEST_TYPES.endpointUpdate, {
      ...body,
      endpoint_id: endpointId,
    });
    return { data: resource };
  }

  @Documented({
    tag: 'Webhook endpoints',
    summary: 'Delete a webhook endpoint',
    description: 'With its deliveries and their attempts; nothing more is sent to it.',
    answers: { 204: { description: 'Deleted.' } },
  })
  @Delete(':id')
  @PublicRoute(DELETE)
  async remove(
    @Caller() caller: Principal,
    @PathUuid('id', 'Webhook endpoint') endpointId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.write(reply, caller, WEBHOOK_REQUEST_TYPES.endpointDelete, {
      endpoint_id: endpointId,
    });
  }

  @Documented({
    tag: 'Webhook endpoints',
    summary: 'Roll the signing secret',
    description:
      'Makes a new secret, shown only in this answer. For 24 hours every delivery carries a second `v1=` signature made with the previous secret, so a receiver keeps verifying while it switches. Takes no body.',
    answers: { 200: { description: 'The new secret.', schema: one('WebhookSecret') } },
  })
  @Post(':id/roll-secret')
  @PublicRoute(UPDATE)
  async rollSecret(
    @Caller() caller: Principal,
    @PathUuid('id', 'Webhook endpoint') endpointId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const secret = generateWebhookSecret();
    await this.write(reply, caller, WEBHOOK_REQUEST_TYPES.endpointRollSecret, {
      endpoint_id: endpointId,
      secret_sealed: encryptSecret(secret, this.config.secretsKey),
    });
    return { data: { secret } };
  }

  @Documented({
    tag: 'Webhook endpoints',
    summary: "List an endpoint's deliveries",
    description:
      'Newest first, each with every attempt and the answer your server gave (cut to 16 KiB). Test deliveries included.',
    answers: { 200: { description: 'A page of deliveries.', schema: page('WebhookDelivery') } },
    list: {
      filters: {
        status: '`pending`, `succeeded` or `failed`.',
        event_type: 'Only deliveries of this kind (`webhook.test` for test deliveries).',
      },
    },
  })
  @Get(':id/deliveries')
  @PublicRoute(READ)
  deliveries(
    @Caller() caller: Principal,
    @PathUuid('id', 'Webhook endpoint') endpointId: string,
    @Req() request: FastifyRequest,
  ): Promise<unknown> {
    return this.read(caller, `webhook-endpoints/${endpointId}/deliveries`, request);
  }

  @Documented({
    tag: 'Webhook endpoints',
    summary: 'Redeliver a delivery',
    description:
      'Sends the same envelope again (same id, same bytes) with a fresh signature, as a new round of seven attempts whose numbers continue its history. A switched-off endpoint gets it once it is switched on. Takes no body.',
    answers: { 202: { description: 'The delivery, pending again.', schema: one('WebhookDelivery') } },
  })
  @Post(':id/deliveries/:delivery_id/redeliver')
  @PublicRoute(CREATE)
  async redeliver(
    @Caller() caller: Principal,
    @PathUuid('id', 'Webhook endpoint') endpointId: string,
    @PathUuid('delivery_id', 'Delivery') deliveryId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const resource = await this.write(reply, caller, WEBHOOK_REQUEST_TYPES.deliveryRedeliver, {
      endpoint_id: endpointId,
      delivery_id: deliveryId,
    });
    return resource === undefined ? undefined : { data: resource };
  }

  @Documented({
    tag: 'Webhook endpoints',
    summary: 'Send a test delivery',
    description:
      'One delivery of kind `webhook.test`, whatever kinds the endpoint chose; recorded among its deliveries, never counted toward switching it off. Takes no body.',
    answers: { 202: { description: 'The test delivery, pending.', schema: one('WebhookDelivery') } },
  })
  @Post(':id/test')
  @PublicRoute(CREATE)
  async test(
    @Caller() caller: Principal,
    @PathUuid('id', 'Webhook endpoint') endpointId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const resource = await this.write(reply, caller, WEBHOOK_REQUEST_TYPES.endpointTest, {
      endpoint_id: endpointId,
      delivery_id: randomUUID(),
    });
    return resource === undefined ? undefined : { data: resource };
  }

  private async write<T extends RequestType>(
    reply: FastifyReply,
    caller: Principal,
    type: T,
    data: RequestPayloads[T],
  ): Promise<Record<string, unknown> | undefined> {
    const answer = await this.writePath.submit({ type, workspaceId: caller.workspaceId, data });
    void reply.status(answer.status);
    return answer.resource;
  }

  private async read(caller: Principal, path: string, request: FastifyRequest): Promise<unknown> {
    return (await this.proxy.get('webhook-dispatch', path, queryOf(request), caller.workspaceId)).body;
  }
}
