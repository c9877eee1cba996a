import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { errorCodes, type FastifyRequest, type RawServerDefault } from 'fastify';

import { JsonApiException } from '../errors/json-api.exception';
import { readJsonBody } from './json-body';

/** Route config keys read by the parsers below (set by the decorators, never by hand). */
const RAW_JSON_BODY = 'rawJsonBody';
const BODY_MEDIA_TYPES = 'bodyMediaTypes';

/**
 * Adds members to the route's Fastify config, keeping those other decorators put there (Nest's
 * `RouteConfig` replaces the whole config, so two of them on one handler would keep only one).
 */
export function addRouteConfig(config: Record<string, unknown>): MethodDecorator {
  return (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const existing = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as object;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, ...config }, handler);
    return descriptor;
  };
}

/**
 * The route's handler gets the bytes of its JSON body untouched (a Buffer), to check a signature over
 * them before it parses anything, and then must read them with `readJsonBody`, so that its body obeys
 * the rules of every other. Size and Content-Type are enforced as on every route.
 */
export const RawJsonBody = (): MethodDecorator => addRouteConfig({ [RAW_JSON_BODY]: true });

/**
 * The route also takes bodies of these media types (e.g. `multipart/form-data` for an upload), parsed by
 * the parser given to `acceptBodyMediaType`. Every other route keeps answering them 415.
 */
export const AcceptsBodyMediaTypes = (...mediaTypes: string[]): MethodDecorator =>
  addRouteConfig({ [BODY_MEDIA_TYPES]: mediaTypes.map((type) => type.trim().toLowerCase()) });

function routeConfig(request: FastifyRequest): Record<string, unknown> {
  return request.routeOptions.config as unknown as Record<string, unknown>;
}

/**
 * The body parsers of every service, installed by `bootstrapHttp`: `application/json` (a `charset`
 * other than UTF-8 → 415; no content is no body) read through `readJsonBody`, and one catch-all that
 * answers every other media type 415. Nothing else: Nest would otherwise add a parser for `application/x-www-form-urlencoded`
 * (which handed `name=vip` to a DTO as `{ name: 'vip' }`), and Fastify one for `text/plain` (a string
 * in place of an object). Registering the catch-all is also what keeps Nest from adding its defaults.
 */
export function installBodyParsers(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.removeAllContentTypeParsers();
  app.useBodyParser<RawServerDefault>('application/json', {}, (request, body, done) => {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(JsonApiException.unsupportedMediaType(`The charset ${charset} is not supported; send UTF-8.`));
      return;
    }
    if (routeConfig(request)[RAW_JSON_BODY] === true) {
      done(null, body);
      return;
    }
    // No content, as when no Content-Type is sent: clients that set the header on every request can
    // still call routes that take no body (roll-secret, redeliver), and a route that needs one says
    // which fields are missing.
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    let value: Record<string, unknown>;
    try {
      value = readJsonBody(body);
    } catch (error) {
      // Answered by the exception filter, as a handler's exception would be.
      done(error as Error);
      return;
    }
    done(null, value);
  });
  app.useBodyParser<RawServerDefault>('*', {}, (request, _body, done) => {
    // An unknown route answers 404 whatever its body, as it would without this parser.
    if (request.is404) {
      done(null, undefined);
      return;
    }
    // Answered exactly as Fastify answers a media type no parser is registered for.
    done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE());
  });
}

/** Turns the bytes of a body of another media type into what the route's handler receives. */
export type BodyMediaTypeParser = (request: FastifyRequest, body: Buffer) => unknown;

/**
 * Lets routes marked `@AcceptsBodyMediaTypes(mediaType)` take that media type, parsed by `parse` (a
 * throw or rejection is answered by the exception filter); any other route answers it 415. Call after
 * `bootstrapHttp`, before the application is initialised.
 */
export function acceptBodyMediaType(
  app: NestFastifyApplication,
  mediaType: string,
  parse: BodyMediaTypeParser,
): void {
  const type = mediaType.trim().toLowerCase();
  app.useBodyParser<RawServerDefault>(
    type,
    {},
    async (request: FastifyRequest, body: Buffer): Promise<unknown> => {
      const accepted = routeConfig(request)[BODY_MEDIA_TYPES];
      if (!Array.isArray(accepted) || !accepted.includes(type)) {
        throw new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE();
      }
      return parse(request, body);
    },
  );
}

function charsetOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  for (const parameter of contentType.split(';').slice(1)) {
    const [name, value] = parameter.split('=', 2);
    if (name.trim().toLowerCase() === 'charset' && value !== undefined) {
      return value
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase();
    }
  }
  return undefined;
}
