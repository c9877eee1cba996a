import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Logger } from 'pino';

import { type FailedRequest, mapExceptionToJsonApi } from './exception-to-json-api.mapper';
import { type JsonApiErrorBody, jsonApiErrorObject } from './json-api.exception';

const INTERNAL_DETAIL = 'An unexpected error occurred; quote the id when reporting it.';
const UNAVAILABLE_DETAIL =
  'A system this request needs is unavailable for a moment; retry later, and quote the id if it lasts.';

/**
 * Answers every error of the HTTP layer as `{"errors": [...]}`: thrown by handlers, guards, pipes and
 * middleware, and also Fastify's body-parsing errors and unknown routes, which Nest routes through the
 * same filters.
 */
@Catch()
export class JsonApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') {
      // RPC and WebSocket contexts have their own error shapes; only an app that shares its config
      // with a hybrid microservice can route them here.
      throw exception;
    }
    const http = host.switchToHttp();
    replyWithJsonApiError(
      exception,
      http.getRequest<FastifyRequest | IncomingMessage>(),
      http.getResponse<FastifyReply | ServerResponse>(),
      this.logger,
    );
  }
}

/**
 * The filter's answer outside Nest, for the few errors Fastify raises where no exception filter can
 * reach (see `createFastifyAdapter`). A 500 gets a fresh id, logged with everything the body leaves out.
 */
export function replyWithJsonApiError(
  exception: unknown,
  request: FastifyRequest | IncomingMessage,
  response: FastifyReply | ServerResponse,
  logger: Logger,
): void {
  const failed = describeRequest(request);
  const answer = mapExceptionToJsonApi(exception, failed);
  switch (answer.kind) {
    case 'client':
      send(response, answer.status, { errors: [...answer.errors] }, answer.headers);
      return;
    case 'internal': {
      const errorId = randomUUID();
      logger.error(
        {
          error_id: errorId,
          method: failed.method,
          path: failed.path,
          status: answer.status,
          correlation_id: correlationIdOf(request),
          err: exception,
        },
        'Unhandled error while serving a request',
      );
      send(
        response,
        answer.status,
        { errors: [jsonApiErrorObject(answer.status, INTERNAL_DETAIL, { id: errorId })] },
        {},
      );
      return;
    }
    case 'unavailable': {
      const errorId = randomUUID();
      logger.warn(
        {
          error_id: errorId,
          method: failed.method,
          path: failed.path,
          status: answer.status,
          correlation_id: correlationIdOf(request),
          err: exception,
        },
        'A dependency is unavailable; answered 503',
      );
      send(
        response,
        answer.status,
        { errors: [jsonApiErrorObject(answer.status, UNAVAILABLE_DETAIL, { id: errorId })] },
        { 'Retry-After': String(answer.retryAfterSeconds) },
      );
      return;
    }
  }
}

function isFastifyRequest(request: FastifyRequest | IncomingMessage): request is FastifyRequest {
  return 'raw' in request;
}

function isFastifyReply(response: FastifyReply | ServerResponse): response is FastifyReply {
  return 'raw' in response;
}

function describeRequest(request: FastifyRequest | IncomingMessage): FailedRequest {
  const raw: IncomingMessage & { originalUrl?: string } = isFastifyRequest(request) ? request.raw : request;
  // Middleware sees `url` with its mount path cut off; middie keeps the full one in `originalUrl`.
  const url = raw.originalUrl ?? raw.url ?? '/';
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const method = raw.method ?? 'GET';
  const contentType = raw.headers['content-type'];

  if (!isFastifyRequest(request)) {
    return { method, path, routeNotFound: false, allowedMethods: () => [], contentType };
  }
  return {
    method,
    path,
    routeNotFound: request.is404,
    allowedMethods: () => allowedMethodsFor(request, path),
    bodyLimitBytes: request.routeOptions.bodyLimit,
    contentType,
  };
}

/** The methods whose routes match this path, for a 405 in place of a 404. */
function allowedMethodsFor(request: FastifyRequest, path: string): string[] {
  const server = request.server;
  const methods = server.supportedMethods.filter((method) => {
    // Typed as never null, but find-my-way answers null for a method without a matching route.
    const route: ReturnType<typeof server.findRoute> | null = server.findRoute({
      method: method as HTTPMethods,
      url: path,
    });
    // Nest answers 404 for a route parameter matched by an empty segment, so such a route does not count.
    return route !== null && Object.values(route.params ?? {}).every((value) => value !== '');
  });
  return methods.sort();
}

/** The request's id is its correlation id (see `requestIdGenerator`); middie copies it onto the raw request. */
function correlationIdOf(request: FastifyRequest | IncomingMessage): string | undefined {
  const id = (request as { id?: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

function send(
  response: FastifyReply | ServerResponse,
  status: number,
  body: JsonApiErrorBody,
  headers: Readonly<Record<string, string>>,
): void {
  // A Buffer, because Fastify appends "; charset=utf-8" to a string, and the error contract says
  // application/json as it is (JSON has no charset parameter, RFC 8259 §11).
  const payload = Buffer.from(JSON.stringify(body));
  if (isFastifyReply(response)) {
    if (response.sent || response.raw.headersSent) {
      return;
    }
    void response
      .code(status)
      .headers({ ...headers, 'content-type': 'application/json' })
      .send(payload);
    return;
  }
  if (response.headersSent) {
    return;
  }
  response.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(payload);
}
