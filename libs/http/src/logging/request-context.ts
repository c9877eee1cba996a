import { AsyncLocalStorage } from 'node:async_hooks';

import { isSpanContextValid, trace } from '@opentelemetry/api';

/** What every log line written while serving one HTTP request carries. */
export interface RequestContext {
  correlationId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `work` (and everything it starts) as part of the request. */
export function runInRequestContext<T>(request: RequestContext, work: () => T): T {
  return storage.run(request, work);
}

/** The correlation id of the HTTP request being served, if any: the one answered in X-Request-Id. */
export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

/**
 * The fields that tie a log line to a request and a trace: `correlation_id` while serving an HTTP
 * request, `trace_id`/`span_id` while a span is active (an HTTP request, a Kafka record being applied).
 */
export function logContextFields(): Record<string, string> {
  const fields: Record<string, string> = {};
  const correlationId = storage.getStore()?.correlationId;
  if (correlationId !== undefined) fields['correlation_id'] = correlationId;
  const span = trace.getActiveSpan()?.spanContext();
  if (span !== undefined && isSpanContextValid(span)) {
    fields['trace_id'] = span.traceId;
    fields['span_id'] = span.spanId;
  }
  return fields;
}
