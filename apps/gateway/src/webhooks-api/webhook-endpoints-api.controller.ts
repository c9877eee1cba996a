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

  @Get()
  @PublicRoute(READ)
  list(@Caller() caller: Principal, @Req() request: FastifyRequest): Promise<unknown> {
    return this.read(caller, 'webhook-endpoints', request);
  }

  @Get(':id')
  @PublicRoute(READ)
  get(
    @Caller() caller: Principal,
    @PathUuid('id', 'Webhook endpoint') endpointId: string,
    @Req() request: FastifyRequest,
  ): Promise<unknown> {
    return this.read(caller, `webhook-endpoints/${endpointId}`, request);
  }

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

  @Get(':id/deliveries')
  @PublicRoute(READ)
  deliveries(
    @Caller() caller: Principal,
    @PathUuid('id', 'Webhook endpoint') endpointId: string,
    @Req() request: FastifyRequest,
  ): Promise<unknown> {
    return this.read(caller, `webhook-endpoints/${endpointId}/deliveries`, request);
  }

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
