import { context, diag, DiagLogLevel, propagation, trace, type DiagLogger } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace';
import type { Logger } from 'pino';

export interface StartTracingOptions {
  /** Where export failures are reported; they are never thrown at the service. */
  logger?: Logger;
  /** Replaces the OTLP export; tests pass an in-memory exporter's processor. */
  spanProcessors?: SpanProcessor[];
}

export interface Tracing {
  /** The service the process traces as (the first one that started tracing in it). */
  service: string;
  /** Whether spans leave the process. */
  exporting: boolean;
  /** Sends what is buffered; called when an app closes. */
  flush(): Promise<void>;
}

let installed: Tracing | undefined;

function diagLogger(logger: Logger): DiagLogger {
  const write =
    (level: 'error' | 'warn' | 'info' | 'debug' | 'trace') =>
    (message: string, ...args: unknown[]): void =>
      logger[level]({ otel: args.length > 0 ? args.map(String) : undefined }, message);
  return {
    error: write('error'),
    warn: write('warn'),
    info: write('info'),
    debug: write('debug'),
    verbose: write('trace'),
  };
}

/**
 * W3C trace context for the whole process: the context travels with async work (AsyncLocalStorage),
 * `traceparent`/`tracestate` are read from and written to HTTP and Kafka headers, and every span gets
 * fresh ids. Spans are exported over OTLP/HTTP only when an endpoint is configured; without one they
 * still exist in-process, so trace ids reach the log lines and the Kafka headers at no export cost.
 * The exporter reads its endpoint, headers and timeout from the standard `OTEL_EXPORTER_OTLP_*`
 * variables; `OTEL_SERVICE_NAME` overrides the service name.
 *
 * The API's globals can be set once per process, so the first call wins and later ones (several apps
 * in one test process) get the same handle.
 */
export function startTracing(service: string, options: StartTracingOptions = {}): Tracing {
  if (installed) return installed;
  const env = process.env;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const exporting = options.spanProcessors !== undefined || (endpoint !== undefined && endpoint !== '');
  const spanProcessors =
    options.spanProcessors ??
    (exporting ? [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })] : []);
  if (options.logger) diag.setLogger(diagLogger(options.logger), DiagLogLevel.WARN);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? service }),
    spanProcessors,
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  installed = {
    service,
    exporting,
    flush: () => provider.forceFlush(),
  };
  return installed;
}
