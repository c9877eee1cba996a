import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type TextMapGetter,
} from '@opentelemetry/api';
import type { IHeaders, KafkaMessage, Message } from 'kafkajs';

/** The W3C trace context header; `tracestate` travels beside it when there is one. */
export const TRACEPARENT_HEADER = 'traceparent';

const TRACEPARENT_FORMAT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The first value of a Kafka header as text. */
export function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  if (value === undefined) return undefined;
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

const kafkaHeaders: TextMapGetter<IHeaders | undefined> = {
  keys: (carrier) => Object.keys(carrier ?? {}),
  get: (carrier, key) => headerText(carrier, key),
};

/**
 * The headers that carry `trace` (by default the caller's active context) to whoever reads the record:
 * empty when no trace is active or no propagator is set up for the process.
 */
export function traceHeaders(trace: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(trace, carrier);
  return carrier;
}

/** Stamps the caller's trace context on records that do not carry one of their own. */
export function withTraceHeaders(messages: Message[]): Message[] {
  const carrier = traceHeaders();
  if (Object.keys(carrier).length === 0) return messages;
  return messages.map((message) =>
    message.headers?.[TRACEPARENT_HEADER] !== undefined
      ? message
      : { ...message, headers: { ...message.headers, ...carrier } },
  );
}

/** The trace id in a record's `traceparent`, for log lines written outside its span. */
export function traceIdOf(headers: IHeaders | undefined): string | undefined {
  return TRACEPARENT_FORMAT.exec(headerText(headers, TRACEPARENT_HEADER) ?? '')?.[1];
}

export interface RecordSpanTarget {
  consumer: string;
  topic: string;
  partition: number;
  message: KafkaMessage;
  recordType: string | undefined;
  /** The record is being dead-lettered: its span ends as failed. */
  failed?: boolean;
}

/**
 * Runs `work` in a consumer span for one record, continuing the trace its headers carry (or starting
 * one), so that the log lines it writes and the records it emits carry that trace. The span fails when
 * `work` throws (the error still propagates) or when the record is being dead-lettered.
 */
export async function inRecordSpan<T>(
  target: RecordSpanTarget,
  work: (traceId: string) => Promise<T>,
): Promise<T> {
  const parent = propagation.extract(ROOT_CONTEXT, target.message.headers, kafkaHeaders);
  const span = trace.getTracer('@cms/kafka').startSpan(
    `${target.topic} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.type': 'process',
        'messaging.destination.name': target.topic,
        'messaging.destination.partition.id': String(target.partition),
        'messaging.kafka.offset': Number(target.message.offset),
        'messaging.consumer.group.name': target.consumer,
        ...(target.recordType !== undefined ? { 'cloudevents.event_type': target.recordType } : {}),
      },
    },
    parent,
  );
  if (target.failed) span.setStatus({ code: SpanStatusCode.ERROR, message: 'dead-lettered' });
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span.spanContext().traceId));
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}
