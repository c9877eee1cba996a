import { STATUS_CODES } from 'node:http';

import { HttpException } from '@nestjs/common';

/** Where in the request an error lies: a JSON Pointer into the body, and for query parameters their name. */
export interface JsonApiErrorSource {
  pointer: string;
  parameter?: string;
}

/** One element of the `errors` array of a JSON:API error body; assignable to `OutcomeError` of `@cms/contracts`. */
export interface JsonApiErrorObject {
  status: string;
  title: string;
  detail: string;
  source?: JsonApiErrorSource;
  id?: string;
}

export interface JsonApiErrorBody {
  errors: JsonApiErrorObject[];
}

/** A failed field as application code reports it; the status and title are always those of a 422. */
export interface ValidationIssue {
  detail: string;
  source?: JsonApiErrorSource;
}

/** The statuses this platform answers with on purpose; anything else gets its RFC 9110 reason phrase. */
export type JsonApiErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

export const JSON_API_ERROR_TITLES: Readonly<Record<JsonApiErrorStatus, string>> = {
  400: 'Bad Request',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Validation Error',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function isJsonApiErrorStatus(status: number): status is JsonApiErrorStatus {
  return Object.hasOwn(JSON_API_ERROR_TITLES, status);
}

export function jsonApiErrorTitle(status: number): string {
  return isJsonApiErrorStatus(status) ? JSON_API_ERROR_TITLES[status] : (STATUS_CODES[status] ?? 'Error');
}

export function jsonApiErrorObject(
  status: number,
  detail: string,
  extra: Pick<JsonApiErrorObject, 'source' | 'id'> = {},
): JsonApiErrorObject {
  return { status: String(status), title: jsonApiErrorTitle(status), detail, ...extra };
}

/**
 * An error answered exactly as given: the filter sends `errors` and `headers` untouched. Thrown by
 * application code (usually through the static helpers) and by the validation pipe.
 */
export class JsonApiException extends HttpException {
  readonly errors: readonly JsonApiErrorObject[];
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    errors: readonly JsonApiErrorObject[],
    headers: Readonly<Record<string, string>> = {},
  ) {
    super({ errors }, status);
    this.errors = errors;
    this.headers = headers;
  }

  static of(
    status: JsonApiErrorStatus,
    detail: string,
    headers: Readonly<Record<string, string>> = {},
  ): JsonApiException {
    return new JsonApiException(status, [jsonApiErrorObject(status, detail)], headers);
  }

  static validation(issues: readonly ValidationIssue[]): JsonApiException {
    return new JsonApiException(
      422,
      issues.map((issue) =>
        jsonApiErrorObject(422, issue.detail, issue.source ? { source: issue.source } : {}),
      ),
    );
  }

  static badRequest(detail: string): JsonApiException {
    return JsonApiException.of(400, detail);
  }

  static unauthenticated(detail = 'The API key is missing or invalid.'): JsonApiException {
    return JsonApiException.of(401, detail);
  }

  static forbidden(detail = 'This action is not allowed.'): JsonApiException {
    return JsonApiException.of(403, detail);
  }

  static notFound(detail: string): JsonApiException {
    return JsonApiException.of(404, detail);
  }

  static methodNotAllowed(allowedMethods: readonly string[], detail?: string): JsonApiException {
    const allow = allowedMethods.join(', ');
    return JsonApiException.of(405, detail ?? `The method is not allowed here; allowed: ${allow}.`, {
      Allow: allow,
    });
  }

  static conflict(detail: string): JsonApiException {
    return JsonApiException.of(409, detail);
  }

  static payloadTooLarge(detail = 'The request body is too large.'): JsonApiException {
    return JsonApiException.of(413, detail);
  }

  static unsupportedMediaType(detail = 'The Content-Type must be application/json.'): JsonApiException {
    return JsonApiException.of(415, detail);
  }

  static tooManyRequests(retryAfterSeconds: number, detail?: string): JsonApiException {
    const seconds = retryAfterHeaderValue(retryAfterSeconds);
    return JsonApiException.of(429, detail ?? `Too many requests; retry after ${seconds} seconds.`, {
      'Retry-After': seconds,
    });
  }

  static serviceUnavailable(retryAfterSeconds: number, detail?: string): JsonApiException {
    const seconds = retryAfterHeaderValue(retryAfterSeconds);
    return JsonApiException.of(
      503,
      detail ?? `The service is temporarily unavailable; retry after ${seconds} seconds.`,
      { 'Retry-After': seconds },
    );
  }
}

// Retry-After is delta-seconds, a non-negative integer (RFC 9110 §10.2.3): rounding down would invite a
// retry that is still too early.
function retryAfterHeaderValue(seconds: number): string {
  return String(Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 0);
}

/** A body read by a contract's reader: its value, or every problem at its pointer. */
export type PointedReading<T> =
  { ok: true; value: T } | { ok: false; problems: ReadonlyArray<{ pointer: string; detail: string }> };

/** The 422 of a reader's problems, each at its pointer. */
export function refusedAtPointers(
  problems: ReadonlyArray<{ pointer: string; detail: string }>,
): JsonApiException {
  return JsonApiException.validation(
    problems.map((problem) => ({ detail: problem.detail, source: { pointer: problem.pointer } })),
  );
}

/** The value a reader read, or the 422 of each of its problems at its pointer. */
export function acceptedReading<T>(reading: PointedReading<T>): T {
  if (!reading.ok) throw refusedAtPointers(reading.problems);
  return reading.value;
}
