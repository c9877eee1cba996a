import { randomUUID } from 'node:crypto';

import { MAX_CALLBACK_CONTACT_IDS, MESSAGING_REQUEST_TYPES } from '@cms/contracts';
import {
  AcceptsBodyMediaTypes,
  acceptBodyMediaType,
  JsonApiException,
  jsonApiErrorObject,
  RawJsonBody,
} from '@cms/http';
import { LOGGER } from '@cms/service-kit';
import { Controller, Get, HttpException, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { MAX_INBOUND_BODY_BYTES } from '../integrations/receive-webhook/inbound-webhook.controller';
import { MESSAGING } from '../messaging-api/messaging-api';
import { Documented, type SuccessAnswer } from '../openapi/documented.decorator';
import { queryOf } from '../proxy/upstream.proxy';
import { UpstreamProxy } from '../proxy/upstream.proxy';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { WorkspaceEntity } from '../workspaces/workspace.entity';
import { WritePathService } from '../write-path/write-path.service';

/** Twilio posts its callbacks form-encoded; Meta and Telegram post JSON. */
const FORM = 'application/x-www-form-urlencoded';

/** The answer to a recorded callback: `{}`. */
const RECORDED = { type: 'object', additionalProperties: false, properties: {} } as const;

/** Every answer to a callback URL counts against its limit (PROVIDER_CALLBACKS_PER_URL) and says so. */
const RATE_LIMIT_HEADERS: SuccessAnswer['headers'] = {
  'X-RateLimit-Limit': {
    description: 'Callbacks this URL may take in the rate-limit window.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Callbacks left in the window.', schema: { type: 'integer' } },
};

const TOO_MANY_CALLBACKS: SuccessAnswer = {
  description: 'More callbacks to this URL than its limit; Retry-After says when.',
  headers: {
    ...RATE_LIMIT_HEADERS,
    'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
  },
};

/** What the gateway asks the messaging service about a callback, before anything is recorded. */
export interface CallbackVerification {
  token: string;
  method: 'GET' | 'POST';
  /** The address the provider called, as it signed it: PUBLIC_BASE_URL, the path and the query. */
  url: string;
  /** Each query parameter once (its last value). */
  query: Record<string, string>;
  /** Lower-case names; a header sent more than once has its values joined with `, `. */
  headers: Record<string, string>;
  body_base64: string;
}

/**
 * The messaging service's answer to a verification: 200 `{data: {workspace_id, channel_id}}` (verified)
 * or `{data: {handshake}}` (the challenge to echo), or its refusal (401, 403, 404), passed on as is.
 */
type Verdict = { data?: Record<string, unknown> } | undefined;

/** Lets the provider callback route take form-encoded bodies, as raw bytes; every other route stays 415. */
export function acceptProviderCallbackBodies(app: NestFastifyApplication): void {
  acceptBodyMediaType(app, FORM, (_request, body) => body);
}

function headersOf(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The media type without its parameters, as the route's parsers matched it. */
function mediaTypeOf(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * `GET` and `POST /webhook/provider/<token>` (extensions §9): status callbacks and inbound messages
 * from a provider. No API key: the messaging service checks the provider's signature with the channel's
 * credentials (401 wrong or missing, 404 unknown token, 403 a handshake whose verify token does not
 * match). A verified callback is on the log before it is answered 200; nobody waits for its decision.
 * When it cannot be checked or recorded the answer is 503, so the provider sends it again.
 */
@Controller('webhook/provider')
export class ProviderCallbackController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(UpstreamProxy) private readonly proxy: UpstreamProxy,
    @Inject(WritePathService) private readonly writePath: WritePathService,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(RateLimitService) private readonly rateLimits: RateLimitService,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
    @Inject(DataSource) private readonly dataSource: DataSource,
  ) {}

  @Get(':token')
  @Documented({
    tag: 'Provider callbacks',
    summary: "A provider's callback by GET: Meta's subscription handshake, or a status callback",
    description:
      'No API key. With hub.mode=subscribe, hub.verify_token and hub.challenge the challenge is answered as text/plain when the verify token is the channel’s (else 403). Any other verified GET is recorded with its query string as a form-encoded body.',
    answers: {
      200: {
        description: 'Recorded (`{}`), or the handshake challenge (text/plain).',
        headers: RATE_LIMIT_HEADERS,
        content: {
          'application/json': RECORDED,
          'text/plain': { type: 'string', description: 'The `hub.challenge` sent, as it was sent.' },
        },
      },
      429: TOO_MANY_CALLBACKS,
    },
  })
  receiveGet(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.receive(token, request, reply);
  }

  @Post(':token')
  @RawJsonBody()
  @AcceptsBodyMediaTypes(FORM)
  @Documented({
    tag: 'Provider callbacks',
    summary: "A provider's callback: message statuses and inbound messages",
    description:
      'No API key: the provider’s own signature (X-Twilio-Signature, X-Hub-Signature-256, X-Telegram-Bot-Api-Secret-Token) is checked with the channel’s credentials before anything is recorded. The body (JSON or form-encoded, at most 1 MiB) is recorded as sent.',
    answers: {
      200: { description: 'Recorded.', schema: RECORDED, headers: RATE_LIMIT_HEADERS },
      429: TOO_MANY_CALLBACKS,
    },
  })
  @ApiConsumes('application/json', FORM)
  @ApiBody({
    schema: { type: 'object', additionalProperties: true, description: 'As the provider sends it.' },
  })
  receivePost(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.receive(token, request, reply);
  }

  private async receive(token: string, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    try {
      const limit = await this.rateLimits.consumeProviderCallback(token);
      void reply.header('X-RateLimit-Limit', String(limit.limit));
      void reply.header('X-RateLimit-Remaining', String(limit.remaining));
      if (!limit.allowed) throw JsonApiException.tooManyRequests(limit.retryAfterSeconds);
      // HEAD, which Fastify answers with the GET route, is checked as the GET it stands for.
      const get = request.method !== 'POST';
      const body = !get && Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (body.length > MAX_INBOUND_BODY_BYTES) {
        throw JsonApiException.of(
          413,
          `The request body is larger than the limit of ${MAX_INBOUND_BODY_BYTES} bytes.`,
        );
      }
      const query = queryOf(request);
      const verification: CallbackVerification = {
        token,
        method: get ? 'GET' : 'POST',
        url: `${this.config.publicBaseUrl}${request.url}`,
        query: Object.fromEntries(new URLSearchParams(query)),
        headers: headersOf(request),
        body_base64: body.toString('base64'),
      };
      const verdict = (await this.proxy.post(MESSAGING, 'provider-callbacks/verify', verification))
        .body as Verdict;
      const data = verdict?.data;
      if (typeof data?.handshake === 'string') {
        void reply.status(200).header('content-type', 'text/plain; charset=utf-8');
        return data.handshake;
      }
      if (typeof data?.workspace_id !== 'number' || typeof data.channel_id !== 'number') {
        throw new Error('the messaging service answered a verification without a channel or handshake');
      }
      const newContacts = await this.newContacts(data.workspace_id, data['inbound_messages']);
      // A GET callback carries its fields in the query string, which is recorded as a form body.
      await this.writePath.record({
        type: MESSAGING_REQUEST_TYPES.providerCallback,
        workspaceId: data.workspace_id,
        data: {
          channel_id: data.channel_id,
          content_type: get ? FORM : mediaTypeOf(request),
          body_base64: get ? Buffer.from(query).toString('base64') : verification.body_base64,
          received_at: new Date().toISOString(),
          ...newContacts,
        },
      });
      void reply.status(200);
      return {};
    } catch (error) {
      if (error instanceof HttpException) throw error;
      // The URL holds the token: the log line never names the path.
      const errorId = randomUUID();
      this.logger.error(
        { err: error, error_id: errorId },
        "Unhandled error while receiving a provider's callback",
      );
      throw new JsonApiException(500, [
        jsonApiErrorObject(500, 'An unexpected error occurred; retry later.', { id: errorId }),
      ]);
    }
  }

  /**
   * The contact ids an unknown sender of each inbound message in the callback is created under (on
   * phone channels; the messaging service counted the messages), and the workspace's plan limit.
   */
  private async newContacts(
    workspaceId: number,
    inbound: unknown,
  ): Promise<{ contact_ids?: number[]; contact_limit?: number }> {
    const count = typeof inbound === 'number' ? Math.min(Math.max(0, inbound), MAX_CALLBACK_CONTACT_IDS) : 0;
    if (count === 0) return {};
    const [ids, workspace] = await Promise.all([
      this.ids.many('contact', count),
      this.dataSource.getRepository(WorkspaceEntity).findOneBy({ id: workspaceId }),
    ]);
    return {
      contact_ids: ids,
      contact_limit: workspace === null ? 0 : this.config.plans[workspace.plan].storedContacts,
    };
  }
}
