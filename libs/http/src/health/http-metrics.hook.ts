import type { FastifyInstance } from 'fastify';
import { Histogram, type Registry } from 'prom-client';

export const HTTP_REQUEST_DURATION_METRIC = 'http_request_duration_seconds';

/** Requests that matched no route share one label value, or every scanned URL would become a series. */
export const UNMATCHED_ROUTE_LABEL = 'unmatched';

const instrumented = new WeakSet<FastifyInstance>();

/**
 * Times every response, labelled with the route pattern (`/contacts/:id`) rather than the URL. Must run
 * before the Fastify instance is ready, i.e. before `listen()` or the first `inject()`.
 */
export function installHttpMetrics(fastify: FastifyInstance, registry: Registry): void {
  if (instrumented.has(fastify)) {
    return;
  }
  instrumented.add(fastify);
  const duration = new Histogram({
    name: HTTP_REQUEST_DURATION_METRIC,
    help: 'Time from receiving an HTTP request to finishing its response, in seconds.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    duration.observe(
      {
        method: request.method,
        route: request.is404 ? UNMATCHED_ROUTE_LABEL : (request.routeOptions.url ?? UNMATCHED_ROUTE_LABEL),
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
