import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { errorCodes, type FastifyRequest } from 'fastify';

import { JsonApiException } from '../errors/json-api.exception';
import { addRouteConfig } from './install-body-parsers';

/** Route config key read by the hook below (set by the decorator, never by hand). */
const STREAMED_BODY = 'streamedBody';

function normalise(mediaType: string): string {
  return mediaType.trim().toLowerCase();
}

/** The media type of a request's body without its parameters; '' when it has no Content-Type. */
function mediaTypeOf(request: FastifyRequest): string {
  return normalise((request.headers['content-type'] ?? '').split(';')[0]!);
}

/**
 * The route takes a body of this media type only, and reads it itself as a stream (an upload larger
 * than any body the service buffers): its handler consumes `request.raw` (or a plugin that parses it
 * as it arrives) and enforces its own size limit, since Fastify's body limit applies only to bodies a
 * parser reads. Any other Content-Type, or none, is answered 415 before a byte of the body is read.
 */
export const StreamedBody = (mediaType: string): MethodDecorator =>
  addRouteConfig({ [STREAMED_BODY]: normalise(mediaType) });

export interface AcceptStreamedBodyOptions {
  /**
   * A Fastify plugin registered a parser for the media type already (`@fastify/multipart` does for
   * `multipart/form-data`); otherwise one that leaves the body unread is registered here.
   */
  parserRegistered?: boolean;
}

/**
 * Lets routes marked `@StreamedBody(mediaType)` take that media type unread, and keeps every other
 * route answering it 415 as `installBodyParsers` answers any media type it does not know. Checked in a
 * `preParsing` hook: after the request hooks (the public API's key and rate limit), before any body is
 * read. Call after `bootstrapHttp`, before the application is initialised.
 */
export function acceptStreamedBody(
  app: NestFastifyApplication,
  mediaType: string,
  options: AcceptStreamedBodyOptions = {},
): void {
  const type = normalise(mediaType);
  const fastify = app.getHttpAdapter().getInstance();
  if (options.parserRegistered !== true) {
    fastify.addContentTypeParser(type, (_request, _payload, done) => done(null, undefined));
  }
  fastify.addHook('preParsing', async (request, _reply, payload) => {
    if (request.is404) return payload;
    const routeType = (request.routeOptions.config as unknown as Record<string, unknown>)[STREAMED_BODY];
    const given = mediaTypeOf(request);
    if (routeType === type && given !== type) {
      const named = given === '' ? 'none' : given;
      throw JsonApiException.unsupportedMediaType(
        `The Content-Type ${named} is not supported here; send ${type}.`,
      );
    }
    // Answered as the catch-all parser answers a media type the route does not take.
    if (routeType !== type && given === type) throw new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE();
    return payload;
  });
}
