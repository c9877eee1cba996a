import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

import { replyWithJsonApiError } from '../errors/json-api-exception.filter';
import { requestIdGenerator } from './request-telemetry.hook';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export interface CreateFastifyAdapterOptions {
  /** Logs the rare 500 that Fastify raises while routing, before Nest's exception filters apply. */
  logger: Logger;
  /** Larger bodies are answered 413 before any route code runs. */
  bodyLimitBytes?: number;
  /**
   * Take the caller's X-Request-Id as the request's correlation id: for services only the gateway
   * calls. The public edge leaves it off and mints one per request.
   */
  trustCallerRequestId?: boolean;
}

/**
 * The adapter every service runs on. Fastify's own logger stays off: Nest and the error filter log
 * through the service's pino logger.
 */
export function createFastifyAdapter(options: CreateFastifyAdapterOptions): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    logger: false,
    requestIdHeader: false,
    genReqId: requestIdGenerator(options.trustCallerRequestId ?? false),
    // A URL the router cannot decode is refused with a context built before Nest installs its error
    // handler, so without this it would get Fastify's own error body instead of JSON:API.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      replyWithJsonApiError(error, request, reply, options.logger);
    },
  });
}
