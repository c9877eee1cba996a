import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest, RawServerDefault } from 'fastify';

/** Route config of the routes whose handler gets the body's bytes untouched (a Buffer) instead of JSON. */
const RAW_BODY = 'rawBody';

/** Marks a route as taking the raw bytes of its JSON body: the inbound webhook signs exactly those. */
export const RawJsonBody = (): MethodDecorator => RouteConfig({ [RAW_BODY]: true });

function wantsRawBody(request: FastifyRequest): boolean {
  return (request.routeOptions.config as unknown as Record<string, unknown>)[RAW_BODY] === true;
}

/**
 * The application/json parser of the gateway: for every route what Nest registers by default (Fastify's
 * JSON parser, prototype poisoning refused), except that a route marked with `RawJsonBody()` gets the
 * bytes as they arrived, so its handler can check a signature before it parses anything. The body limit
 * (and its 413) applies to both. Call before the application is initialised.
 */
export function useJsonParserWithRawBodyRoutes(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  const { bodyLimit, onProtoPoisoning, onConstructorPoisoning } = fastify.initialConfig;
  const json = fastify.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  app.useBodyParser<RawServerDefault>('application/json', { bodyLimit }, (request, body, done) => {
    if (wantsRawBody(request)) {
      done(null, body);
      return;
    }
    // Fastify's JSON parser takes a Buffer as well as a string (Nest's default hands it a Buffer too).
    void json(request, body as unknown as string, done);
  });
}

/** Parses raw JSON bytes exactly as the JSON parser of the other routes would (prototype poisoning refused). */
export function parseJsonBody(
  request: FastifyRequest,
  body: Buffer,
): { ok: true; value: unknown } | { ok: false } {
  const { onProtoPoisoning, onConstructorPoisoning } = request.server.initialConfig;
  const json = request.server.getDefaultJsonParser(
    onProtoPoisoning ?? 'error',
    onConstructorPoisoning ?? 'error',
  );
  let result: { ok: true; value: unknown } | { ok: false } = { ok: false };
  // Fastify's JSON parser is synchronous: it has called back before it returns.
  void json(request, body as unknown as string, (error: Error | null, value?: unknown) => {
    result = error ? { ok: false } : { ok: true, value };
  });
  return result;
}
