import { HttpException } from '@nestjs/common';

import { isDependencyUnavailable } from './dependency-unavailable';
import {
  type JsonApiErrorObject,
  JsonApiException,
  jsonApiErrorObject,
  jsonApiErrorTitle,
} from './json-api.exception';

/** What the mapper needs to know about the request that failed; the filter reads it from Fastify. */
export interface FailedRequest {
  method: string;
  /** The path without its query string. */
  path: string;
  /** True when no route matched the method and path, i.e. the router's own 404. */
  routeNotFound: boolean;
  /** The methods that do have a route for this path (empty when the path is unknown to every method). */
  allowedMethods: () => readonly string[];
  bodyLimitBytes?: number;
  contentType?: string;
}

export type ErrorAnswer =
  | {
      kind: 'client';
      status: number;
      errors: readonly JsonApiErrorObject[];
      headers: Readonly<Record<string, string>>;
    }
  /** A fault on our side: the client gets an id only, the log gets everything. */
  | { kind: 'internal'; status: number }
  /** Something the request needs cannot be reached right now: 503 and Retry-After, an id, a warning. */
  | { kind: 'unavailable'; status: 503; retryAfterSeconds: number };

/** What a client is asked to wait when a dependency is unreachable (a restart takes seconds). */
const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/**
 * Fastify's errors from routing the URL and reading the body, raised before any route code runs; their
 * own messages name Fastify internals ("content-type parser"), so each gets a detail written for clients.
 */
const FRAMEWORK_ERROR_CODES = [
  'FST_ERR_BAD_URL',
  'FST_ERR_MAX_PARAM_LENGTH',
  'FST_ERR_CTP_BODY_TOO_LARGE',
  'FST_ERR_CTP_INVALID_JSON_BODY',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
  'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
] as const;
type FrameworkErrorCode = (typeof FRAMEWORK_ERROR_CODES)[number];

const NOT_VALID_JSON = 'The request body is not valid JSON.';

export function mapExceptionToJsonApi(exception: unknown, request: FailedRequest): ErrorAnswer {
  if (exception instanceof JsonApiException) {
    return client(exception.getStatus(), exception.errors, exception.headers);
  }

  // The Fastify adapter wraps Fastify's 4xx errors in an HttpException and keeps the original as `cause`.
  const frameworkErrorCode = frameworkErrorCodeOf(exception) ?? frameworkErrorCodeOf(causeOf(exception));
  if (frameworkErrorCode !== undefined) {
    return frameworkError(frameworkErrorCode, request);
  }

  if (exception instanceof HttpException) {
    return httpException(exception, request);
  }

  // Hand-written body parsers signal bad input with a 4xx `statusCode` on a plain error.
  const statusCode = clientStatusCodeOf(exception);
  if (statusCode !== undefined) {
    const detail =
      exception instanceof SyntaxError
        ? NOT_VALID_JSON
        : `The request could not be processed (${jsonApiErrorTitle(statusCode)}).`;
    return client(statusCode, [jsonApiErrorObject(statusCode, detail)]);
  }

  if (isDependencyUnavailable(exception)) {
    return { kind: 'unavailable', status: 503, retryAfterSeconds: DEPENDENCY_RETRY_AFTER_SECONDS };
  }

  return { kind: 'internal', status: 500 };
}

function httpException(exception: HttpException, request: FailedRequest): ErrorAnswer {
  const status = exception.getStatus();
  if (status >= 500) {
    // Nest's own 5xx exceptions carry messages written for developers, not for API clients.
    return { kind: 'internal', status };
  }

  if (status === 404 && request.routeNotFound) {
    return routeNotFound(request);
  }

  const details = messagesOf(exception);
  return client(
    status,
    details.map((detail) => jsonApiErrorObject(status, detail)),
  );
}

function routeNotFound(request: FailedRequest): ErrorAnswer {
  const allowed = request.allowedMethods();
  if (allowed.length > 0) {
    const refusal = JsonApiException.methodNotAllowed(
      allowed,
      `The method ${request.method} is not allowed for ${request.path}; allowed: ${allowed.join(', ')}.`,
    );
    return client(405, refusal.errors, refusal.headers);
  }
  return client(404, [
    jsonApiErrorObject(404, `The route ${request.method} ${request.path} could not be found.`),
  ]);
}

function frameworkError(code: FrameworkErrorCode, request: FailedRequest): ErrorAnswer {
  switch (code) {
    case 'FST_ERR_BAD_URL':
      return client(400, [jsonApiErrorObject(400, 'The URL path contains an invalid percent-encoding.')]);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return client(414, [jsonApiErrorObject(414, 'A path segment of the URL is too long.')]);
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      const limit = request.bodyLimitBytes === undefined ? '' : ` of ${request.bodyLimitBytes} bytes`;
      return client(413, [jsonApiErrorObject(413, `The request body is larger than the limit${limit}.`)]);
    }
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return client(400, [jsonApiErrorObject(400, NOT_VALID_JSON)]);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return client(400, [
        jsonApiErrorObject(400, 'The request body is empty although its Content-Type is application/json.'),
      ]);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const given = request.contentType === undefined ? 'none' : request.contentType.split(';')[0].trim();
      return client(415, [
        jsonApiErrorObject(415, `The Content-Type ${given} is not supported; send application/json.`),
      ]);
    }
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return client(400, [
        jsonApiErrorObject(400, 'The request body does not match its Content-Length header.'),
      ]);
  }
}

function client(
  status: number,
  errors: readonly JsonApiErrorObject[],
  headers: Readonly<Record<string, string>> = {},
): ErrorAnswer {
  return { kind: 'client', status, errors, headers };
}

/** Nest's built-in exceptions carry `message` as a string, or an array of them for its own validation pipe. */
function messagesOf(exception: HttpException): string[] {
  const response = exception.getResponse();
  if (typeof response === 'string') {
    return [response];
  }
  const message: unknown = (response as { message?: unknown }).message;
  if (typeof message === 'string') {
    return [message];
  }
  if (Array.isArray(message) && message.length > 0 && message.every((m) => typeof m === 'string')) {
    return message as string[];
  }
  return [exception.message];
}

function causeOf(exception: unknown): unknown {
  return exception instanceof Error ? exception.cause : undefined;
}

function frameworkErrorCodeOf(error: unknown): FrameworkErrorCode | undefined {
  if (!(error instanceof Error) || !('code' in error)) {
    return undefined;
  }
  const { code } = error;
  return FRAMEWORK_ERROR_CODES.find((known) => known === code);
}

function clientStatusCodeOf(error: unknown): number | undefined {
  if (!(error instanceof Error) || !('statusCode' in error)) {
    return undefined;
  }
  const { statusCode } = error;
  return typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500 ? statusCode : undefined;
}
