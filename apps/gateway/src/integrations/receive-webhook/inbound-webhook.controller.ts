import { randomUUID } from 'node:crypto';

import { CONTACT_REQUEST_TYPES, EVENT_REQUEST_TYPES, MAX_IDEMPOTENCY_KEY } from '@cms/contracts';
import { JsonApiException, jsonApiErrorObject, RawJsonBody, readJsonBody } from '@cms/http';
import { LOGGER } from '@cms/service-kit';
import { Controller, Headers, HttpCode, HttpException, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

import { GATEWAY_CONFIG, type GatewayConfig } from '../../config';
import { IdAllocatorRepository } from '../../ids/id-allocator.repository';
import { Documented } from '../../openapi/documented.decorator';
import { RateLimitService } from '../../rate-limit/rate-limit.service';
import { WritePathService, type WriteAnswer } from '../../write-path/write-path.service';
import { readInboundPayload, type InboundRequest } from './inbound-payload';
import { InboundIntegrations, type InboundIntegration } from './inbound-integrations';
import { INBOUND_PAYLOAD_SCHEMA, INBOUND_WEBHOOK_DOC } from './inbound-webhook.openapi';
import { signatureMatches } from './webhook-signature';

/** extensions §5: the raw body is capped at 1 MiB, whatever the gateway's general body limit. */
export const MAX_INBOUND_BODY_BYTES = 1024 * 1024;

/**
 * POST /webhook/integration/<token>: any outside tool posts payloads here to record events and contacts.
 * No API key and no plan gate; the URL names the integration and X-Webhook-Signature proves the sender
 * holds its secret. The order: body size (413) and media type (415) before any route code, known URL
 * (401), the URL's own rate limit (429), signature (401), UTF-8 and JSON (400), the rules of every body
 * and then the payload's own (422); only then is anything written.
 */
@Controller('webhook/integration')
export class InboundWebhookController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(InboundIntegrations) private readonly integrations: InboundIntegrations,
    @Inject(RateLimitService) private readonly rateLimits: RateLimitService,
    @Inject(WritePathService) private readonly writePath: WritePathService,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Post(':token')
  @HttpCode(202)
  @RawJsonBody()
  @Documented(INBOUND_WEBHOOK_DOC)
  @ApiBody({ schema: INBOUND_PAYLOAD_SCHEMA })
  async receive(
    @Param('token') token: string,
    @Headers('x-webhook-signature') signature: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ data: Record<string, unknown> }> {
    let integration: InboundIntegration | null = null;
    try {
      integration = await this.integrations.byToken(token);
      if (!integration)
        throw JsonApiException.unauthenticated('This webhook URL does not name an integration.');
      const decision = await this.rateLimits.consumeInbound(integration.id);
      void reply.header('X-RateLimit-Limit', String(decision.limit));
      void reply.header('X-RateLimit-Remaining', String(decision.remaining));
      if (!decision.allowed) throw JsonApiException.tooManyRequests(decision.retryAfterSeconds);
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (raw.length > MAX_INBOUND_BODY_BYTES) {
        throw JsonApiException.of(
          413,
          `The request body is larger than the limit of ${MAX_INBOUND_BODY_BYTES} bytes.`,
        );
      }
      if (!signatureMatches(signature, raw, integration.signingSecret)) {
        throw JsonApiException.unauthenticated(
          'X-Webhook-Signature is missing or is not the HMAC-SHA256 of the body with this integration’s signing secret.',
        );
      }
      // The rules of every body (400 not UTF-8 or not JSON, 422 not an object, too deep, bad text), by
      // the code every other route's body goes through, once the signature shows who sent it.
      const payload = readJsonBody(raw);
      const inbound = readInboundPayload(payload, integration.fieldMappings);
      const retryKeys = this.retryKeys(integration, inbound, idempotencyKey);
      const answer = await this.record(integration, inbound, retryKeys);
      void reply.status(answer.status);
      return { data: answer.resource ?? {} };
    } catch (error) {
      if (error instanceof HttpException) throw error;
      // The URL holds the token: the log line names the integration instead, never the path.
      const errorId = randomUUID();
      this.logger.error(
        { err: error, error_id: errorId, integration_id: integration?.id },
        'Unhandled error while receiving an inbound webhook',
      );
      throw new JsonApiException(500, [
        jsonApiErrorObject(500, 'An unexpected error occurred; retry later.', { id: errorId }),
      ]);
    }
  }

  /** Per integration, so a tool's ids never meet another's, nor the Idempotency-Keys of the events API. */
  private retryKeys(
    integration: InboundIntegration,
    inbound: InboundRequest,
    idempotencyKey: string | undefined,
  ): string[] {
    if (
      idempotencyKey !== undefined &&
      (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY)
    ) {
      throw JsonApiException.validation([
        {
          detail: `The Idempotency-Key header must be 1 to ${MAX_IDEMPOTENCY_KEY} characters.`,
          source: { pointer: '/data/attributes/idempotency_key' },
        },
      ]);
    }
    const keys: string[] = [];
    if (idempotencyKey !== undefined) keys.push(`integration:${integration.id}:header:${idempotencyKey}`);
    if (inbound.retryId !== undefined) keys.push(`integration:${integration.id}:id:${inbound.retryId}`);
    return keys;
  }

  private async record(
    integration: InboundIntegration,
    inbound: InboundRequest,
    retryKeys: string[],
  ): Promise<WriteAnswer> {
    const origin = {
      contact_limit: this.config.plans[integration.plan].storedContacts,
      integration_id: integration.id,
      retry_keys: retryKeys,
    };
    if (inbound.kind === 'event') {
      const [eventId, contactId] = await Promise.all([this.ids.next('event'), this.ids.next('contact')]);
      return this.writePath.submit({
        type: EVENT_REQUEST_TYPES.record,
        workspaceId: integration.workspaceId,
        data: { ...inbound.event, event_id: eventId, contact_id: contactId, ...origin },
      });
    }
    return this.writePath.submit({
      type: CONTACT_REQUEST_TYPES.ingest,
      workspaceId: integration.workspaceId,
      data: { contact: inbound.contact, contact_id: await this.ids.next('contact'), ...origin },
    });
  }
}
