import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

import { HEALTH_ROUTES } from '../health/health.options';
import { UNMATCHED_ROUTE_LABEL } from '../health/http-metrics.hook';
import { runInRequestContext } from '../logging/request-context';

/** The header a request's correlation id is answered in (and, from a trusted caller, read from). */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What a caller may choose as a request id: short, printable, nothing that could forge a log field. */
const REQUEST_ID_FORMAT = /^[A-Za-z0-9._:-]{1,128}$/;

const PROBE_ROUTES = new Set<string>(HEALTH_ROUTES.map((route) => `/${route}`));

interface RequestTrace {
  /** Absent for the probes, which would bury real traffic under a span every few seconds. */
  span: Span | undefined;
  context: Context;
}

const traces = new WeakMap<FastifyRequest, RequestTrace>();

/** The caller's X-Request-Id when it is one a log line can safely carry. */
export function callerRequestId(headers: IncomingMessage['headers']): string | undefined {
  const value = headers[REQUEST_ID_HEADER];
  return typeof value === 'string' && REQUEST_ID_FORMAT.test(value) ? value : undefined;
}

/**
 * Fastify's `genReqId`: every request's id is its correlation id. A service only the gateway calls
 * takes the caller's X-Request-Id, so one id follows a read through both; the public edge always mints
 * its own, because a client's id need not be unique and the write path waits for answers by this id.
 */
export function requestIdGenerator(trustCallerId: boolean): (request: IncomingMessage) => string {
  return (request) => (trustCallerId ? callerRequestId(request.headers) : undefined) ?? randomUUID();
}

function routeOf(request: FastifyRequest): string {
  // The pattern, never the URL: a path can hold a token (the inbound webhook's) or personal data.
  return request.is404 ? UNMATCHED_ROUTE_LABEL : (request.routeOptions.url ?? UNMATCHED_ROUTE_LABEL);
}

/**
 * Per request: answers the correlation id in X-Request-Id, continues the caller's W3C `traceparent`
 * (or starts a trace) with a server span, runs the handler inside both so that its log lines and the
 * records it produces carry them, and writes one access line when the response is done. Headers are
 * never logged, so neither are credentials.
 */
export function installRequestTelemetry(fastify: FastifyInstance, logger: Logger): void {
  const tracer = trace.getTracer('@cms/http');

  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const route = routeOf(request);
    if (PROBE_ROUTES.has(route)) {
      traces.set(request, { span: undefined, context: parent });
    } else {
      const span = tracer.startSpan(
        `${request.method} ${route}`,
        {
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': request.method, 'http.route': route },
        },
        parent,
      );
      traces.set(request, { span, context: trace.setSpan(parent, span) });
    }
    done();
  });

  // After body parsing: from here Fastify calls the route handler (Nest's guards, pipes, controller)
  // synchronously, so everything it awaits runs inside these contexts.
  fastify.addHook('preHandler', (request, _reply, done) => {
    const traced = traces.get(request);
    runInRequestContext({ correlationId: request.id }, () =>
      traced ? context.with(traced.context, done) : done(),
    );
  });

  fastify.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    const status = reply.statusCode;
    const span = traces.get(request)?.span;
    if (span) {
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    const clientRequestId = callerRequestId(request.headers);
    const line = {
      correlation_id: request.id,
      ...(span ? { trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId } : {}),
      method: request.method,
      route,
      status_code: status,
      duration_ms: Math.round(reply.elapsedTime * 10) / 10,
      ...(clientRequestId !== undefined && clientRequestId !== request.id
        ? { client_request_id: clientRequestId }
        : {}),
    };
    if (PROBE_ROUTES.has(route)) logger.debug(line, 'request completed');
    else logger.info(line, 'request completed');
    done();
  });
}
