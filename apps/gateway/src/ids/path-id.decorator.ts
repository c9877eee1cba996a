import { ALERT_ID_PATTERN, SUPPRESSION_ID_PATTERN } from '@cms/contracts';
import { JsonApiException, parseIdentifier, parseUuid } from '@cms/http';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiParam, type ApiParamOptions } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

/**
 * The one reading of an id in a gateway path (extensions §1): anything but the canonical decimal form
 * of 1 … 2^53 − 1 names nothing, so it is 404 like an unknown id, before any read or write is made.
 */
export function parseId(raw: string, what: string): number {
  const id = parseIdentifier(raw);
  if (id === undefined) throw JsonApiException.notFound(`${what} ${raw} was not found.`);
  return id;
}

/** Webhook endpoint and delivery ids are UUIDs; anything else is 404. */
export function parseUuidId(raw: string, what: string): string {
  const id = parseUuid(raw);
  if (id === undefined) throw JsonApiException.notFound(`${what} ${raw} was not found.`);
  return id;
}

/** A message id: `msg_` and 32 lower-case hexadecimal digits (extensions §1: message ids are strings). */
export const MESSAGE_ID_PATTERN = /^msg_[0-9a-f]{32}$/;

interface PathParam {
  name: string;
  what: string;
}

function rawParam(context: ExecutionContext, name: string): string {
  const params = context.switchToHttp().getRequest<FastifyRequest>().params as Record<string, string>;
  return params[name] ?? '';
}

// Custom parameter decorators rather than pipes on @Param: the global validation pipe converts a
// `number` path parameter with `+value` before a parameter pipe sees it, which would read `1e3` as 1000.
const pathIdParam = createParamDecorator(({ name, what }: PathParam, context: ExecutionContext): number =>
  parseId(rawParam(context, name), what),
);
const pathUuidParam = createParamDecorator(({ name, what }: PathParam, context: ExecutionContext): string =>
  parseUuidId(rawParam(context, name), what),
);

/** An id of the messaging service's making (`msg_…`, `sup_…`, `alert_…`); any other form is 404. */
const pathPatternParam = createParamDecorator(
  ({ name, what, pattern }: PathParam & { pattern: RegExp }, context: ExecutionContext): string => {
    const raw = rawParam(context, name);
    if (!pattern.test(raw)) throw JsonApiException.notFound(`${what} ${raw} was not found.`);
    return raw;
  },
);

/** Also declares the parameter in the OpenAPI document, which does not see custom decorators. */
function documented(decorator: ParameterDecorator, parameter: ApiParamOptions): ParameterDecorator {
  return (target, key, index) => {
    decorator(target, key, index);
    const descriptor = key === undefined ? undefined : Object.getOwnPropertyDescriptor(target, key);
    if (key !== undefined && descriptor) ApiParam(parameter)(target, key, descriptor);
  };
}

/** `@PathId('contact_id', 'Contact') contactId: number`: the id, or 404. */
export const PathId = (name: string, what: string): ParameterDecorator =>
  documented(pathIdParam({ name, what }), {
    name,
    description: `${what} id: digits only, 1 to 2^53 − 1; any other form is 404.`,
    schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
  });

/** `@PathUuid('id', 'Webhook endpoint') endpointId: string`: the lower-case UUID, or 404. */
export const PathUuid = (name: string, what: string): ParameterDecorator =>
  documented(pathUuidParam({ name, what }), {
    name,
    description: `${what} id (a UUID); any other form is 404.`,
    schema: { type: 'string', format: 'uuid' },
  });

/** A path parameter of ids `<prefix>_` and 32 hex digits: `@PathMessageId('id', 'Message') id: string`. */
function pathPrefixedId(prefix: string, pattern: RegExp): (name: string, what: string) => ParameterDecorator {
  return (name, what) =>
    documented(pathPatternParam({ name, what, pattern }), {
      name,
      description: `${what} id: \`${prefix}_\` and 32 lower-case hexadecimal digits; any other form is 404.`,
      schema: { type: 'string', pattern: pattern.source },
    });
}

export const PathMessageId = pathPrefixedId('msg', MESSAGE_ID_PATTERN);
export const PathSuppressionId = pathPrefixedId('sup', SUPPRESSION_ID_PATTERN);
export const PathAlertId = pathPrefixedId('alert', ALERT_ID_PATTERN);
